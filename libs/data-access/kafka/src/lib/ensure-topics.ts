import type { Admin } from 'kafkajs';
import { ALL_TOPICS, TOPIC_MAX_MESSAGE_BYTES, type TopicName } from '@owd/events';
import { TopicNamer } from './topic-namer';

export interface EnsureTopicsOptions {
  partitions: number;
  replicationFactor: number;
  topics?: readonly TopicName[];
}

/**
 * Creates every topic and its dead-letter topic if missing (auto-creation is off on purpose:
 * partition counts are a deliberate choice). Returns the broker names that were created.
 */
export async function ensureTopics(admin: Admin, namer: TopicNamer, options: EnsureTopicsOptions): Promise<string[]> {
  const wanted = (options.topics ?? ALL_TOPICS).flatMap((t) => [namer.name(t), namer.deadLetter(t)]);
  const existing = new Set(await admin.listTopics());
  const missing = wanted.filter((t) => !existing.has(t));
  if (missing.length === 0) return [];
  await admin.createTopics({
    waitForLeaders: true,
    topics: missing.map((topic) => ({
      topic,
      numPartitions: topic.endsWith('.dlq') ? 1 : options.partitions,
      replicationFactor: options.replicationFactor,
      configEntries: [{ name: 'max.message.bytes', value: String(TOPIC_MAX_MESSAGE_BYTES) }],
    })),
  });
  return missing;
}
