import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { ALL_EVENTS, ALL_TOPICS, deadLetterTopic, type TopicName } from '@owd/events';
import { waitFor } from '@owd/testing';
import { SERVICES } from '../system/support/stack';
import { FaultHarness, expectClean } from './support/harness';
import { answer204 } from './support/ledger-receiver';

interface Parked {
  topic: string;
  reason: string;
  group: string;
  key: string;
}

/** Two poison messages for a topic: bytes that are not JSON, and an envelope of the topic's own event type with an empty payload. */
function poisonFor(topic: TopicName): { key: string; value: string }[] {
  const definition = ALL_EVENTS.find((d) => d.topic === topic);
  if (!definition) throw new Error(`no event is defined on ${topic}`);
  const envelope = {
    eventId: randomUUID(), type: definition.type, schemaVersion: definition.schemaVersion, occurredAt: new Date().toISOString(),
    correlationId: randomUUID(), causationId: null, key: `poison-${topic}`, payload: {},
  };
  return [{ key: `poison-${topic}`, value: '\u0000not json {' }, { key: `poison-${topic}`, value: JSON.stringify(envelope) }];
}

/**
 * Poison on every topic, mid-stream: each consumer parks the message in `<topic>.dlq` with its reason and the
 * partition moves on; the stream around it is delivered in full.
 */
describe('fault: a poison message on every topic', () => {
  let h: FaultHarness;
  let kafka: Kafka;
  let dlqReader: Consumer;
  const parked: Parked[] = [];

  beforeAll(async () => {
    h = await FaultHarness.start();
    kafka = new Kafka({ brokers: (process.env['KAFKA_BROKERS'] ?? '').split(','), clientId: 'fault-poison', logLevel: logLevel.NOTHING });
    dlqReader = kafka.consumer({ groupId: `fault-dlq-${randomUUID()}` });
    await dlqReader.connect();
    await dlqReader.subscribe({ topics: ALL_TOPICS.map((t) => `${h.prefix}${deadLetterTopic(t)}`), fromBeginning: true });
    await dlqReader.run({
      eachMessage: async ({ topic, message }) => {
        const header = (name: string) => message.headers?.[name]?.toString() ?? '';
        parked.push({ topic: topic.slice(h.prefix.length), reason: header('dlq-reason'), group: header('dlq-consumer-group'), key: message.key?.toString() ?? '' });
      },
    });
  });

  afterAll(async () => {
    await dlqReader?.disconnect();
    await h?.stop();
  });

  it('parks poison of every topic in its .dlq with a reason, and delivers every result of the stream around it', async () => {
    const { target, goalId } = await h.receiverGoal('Poison', answer204);

    const ids = await h.submit(goalId, 15, 'before the poison');
    const producer = kafka.producer();
    await producer.connect();
    await producer.sendBatch({ topicMessages: ALL_TOPICS.map((t) => ({ topic: `${h.prefix}${t}`, messages: poisonFor(t) })) });
    await producer.disconnect();
    ids.push(...(await h.submit(goalId, 15, 'after the poison')));

    expectClean(await h.ledger('poison on every topic', ids, [target]));
    for (const topic of ALL_TOPICS) {
      await waitFor(() => parked.filter((p) => p.topic === deadLetterTopic(topic) && p.key === `poison-${topic}`).length >= 2,
        { what: `both poison messages of ${topic} parked in its .dlq`, timeoutMs: 30_000 });
    }
    for (const p of parked) {
      expect(p.reason).not.toBe('');
      expect(p.group).not.toBe('');
    }
    // Nobody died of it.
    for (const service of SERVICES) expect(h.stack.running(service)).toBe(true);
  });
});
