import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { ALL_TOPICS, deadLetterTopic, TOPIC_MAX_MESSAGE_BYTES } from '@owd/events';

/** A topic prefix no other test uses. */
export const uniqueTopicPrefix = (): string => `t${randomBytes(4).toString('hex')}.`;

/**
 * A unique topic prefix (KAFKA_TOPIC_PREFIX of the services under test) with every topic and
 * dead-letter topic created, so test files never see each other's events. Or the given prefix's topics, for a test
 * that makes them later than its consumers start.
 */
export async function createTestTopics(partitions = 3, prefix = uniqueTopicPrefix()): Promise<{ prefix: string; brokers: string[] }> {
  const brokers = (process.env['KAFKA_BROKERS'] ?? '').split(',').filter(Boolean);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS is not set: run the integration tests through jest.integration.config.cjs');
  const admin = new Kafka({ brokers, clientId: 'test-admin', logLevel: logLevel.WARN }).admin();
  // As ensureTopics makes them: a topic takes messages of up to TOPIC_MAX_MESSAGE_BYTES.
  const configEntries = [{ name: 'max.message.bytes', value: String(TOPIC_MAX_MESSAGE_BYTES) }];
  const topics = ALL_TOPICS.flatMap((t) => [
    { topic: `${prefix}${t}`, numPartitions: partitions, configEntries },
    { topic: `${prefix}${deadLetterTopic(t)}`, numPartitions: 1, configEntries },
  ]);
  await admin.connect();
  try {
    await createWithRetry(() => admin.createTopics({ waitForLeaders: true, topics }));
    // A retry after an attempt that created the topics but gave up waiting for their leaders finds them there and
    // returns at once, without waiting: so every partition's leader is waited for here, whichever attempt made it.
    await createWithRetry(async () => {
      const { topics: found } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
      const led = found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (!led) throw Object.assign(new Error('a test topic has a partition without a leader yet'), { retriable: true });
      return true;
    });
  } finally {
    await admin.disconnect();
  }
  return { prefix, brokers };
}

/** A broker that has just (re)started may still be loading partitions: metadata errors are retried a while. */
async function createWithRetry(create: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await create();
      return;
    } catch (err) {
      if (attempt >= 30 || !(err as { retriable?: boolean }).retriable) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
