import { Kafka, logLevel, type Producer } from 'kafkajs';
import { TOPICS } from '@owd/events';
import { createTestTopics, TopicReader, waitFor } from '../src';

describe('TopicReader', () => {
  let brokers: string[];
  let prefix: string;
  let producer: Producer;
  let reader: TopicReader | undefined;

  beforeAll(async () => {
    ({ brokers, prefix } = await createTestTopics(1));
    producer = new Kafka({ brokers, clientId: 'topic-reader-spec', logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
  });

  afterEach(async () => {
    await reader?.stop();
    reader = undefined;
  });

  afterAll(async () => {
    await producer.disconnect();
  });

  // What the bench's latency moment "Kafka" is read from: the time the producer handed the record over, not the time
  // a reader that fetches a few times a second got it.
  it('fetching lazily, reads every record with the Kafka timestamp its producer gave it', async () => {
    const stamps = [1_790_000_000_000, 1_790_000_000_250, 1_790_000_001_000];
    await producer.send({
      topic: `${prefix}${TOPICS.DELIVERY_ATTEMPTED}`,
      messages: stamps.map((t, i) => ({ key: `k${i}`, value: `{"n":${i}}`, timestamp: String(t) })),
    });
    reader = await new TopicReader(brokers, prefix, [TOPICS.DELIVERY_ATTEMPTED], { fetchWaitMs: 250 }).start();
    await waitFor(() => reader?.messages.length === stamps.length, { what: 'the three records' });
    expect(reader.messages.map((m) => [m.key, m.timestamp])).toEqual(stamps.map((t, i) => [`k${i}`, t]));
  });

  it('a record its producer sent without a timestamp carries the moment kafkajs sent it', async () => {
    const sentAt = Date.now();
    await producer.send({ topic: `${prefix}${TOPICS.DELIVERY_ATTEMPTED}`, messages: [{ key: 'now', value: '{}' }] });
    reader = await new TopicReader(brokers, prefix, [TOPICS.DELIVERY_ATTEMPTED]).start();
    const read = await waitFor(() => reader?.messages.find((m) => m.key === 'now'), { what: 'the record' });
    // kafkajs stamps a record without a timestamp when it encodes the request: after sentAt, before the read.
    expect(read.timestamp).toBeGreaterThanOrEqual(sentAt);
    expect(read.timestamp).toBeLessThanOrEqual(read.receivedAt);
  });
});
