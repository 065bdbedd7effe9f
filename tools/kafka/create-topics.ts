// Creates every topic (and its .dlq twin) with the configured partition count; auto-creation is off.
//   KAFKA_BROKERS=127.0.0.1:9092 KAFKA_TOPIC_PARTITIONS=6 npx tsx tools/kafka/create-topics.ts
import { createKafka, ensureTopics, TopicNamer } from '@owd/kafka';

async function main(): Promise<void> {
  const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
  const prefix = process.env['KAFKA_TOPIC_PREFIX'] ?? '';
  const partitions = Number(process.env['KAFKA_TOPIC_PARTITIONS'] ?? 6);
  const replicationFactor = Number(process.env['KAFKA_REPLICATION_FACTOR'] ?? 1);
  const admin = createKafka({ brokers, clientId: 'create-topics' }).admin();
  await admin.connect();
  try {
    const created = await ensureTopics(admin, new TopicNamer(prefix), { partitions, replicationFactor });
    console.log(created.length ? `topics: created ${created.join(', ')}` : 'topics: all present');
  } finally {
    await admin.disconnect();
  }
}

main().catch((err) => {
  console.error(`topics: ${(err as Error).message}`);
  process.exit(1);
});
