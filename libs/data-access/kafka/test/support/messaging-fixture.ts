import { DataSource } from 'typeorm';
import type { Kafka } from 'kafkajs';
import { ALL_EVENTS, DeliveryRetryDue, type DeliveryRetryDuePayload } from '@owd/events';
import {
  createKafka, EventConsumer, EventProducer, messagingTablesUp, on, Outbox, OutboxRelay, TopicNamer,
  type ChunkHandler, type ConsumerSpec, type EventFilter, type EventHandler,
} from '../../src';

/** One "service" of the test: its own schema with outbox/inbox, a producer, a relay and a consumer factory. */
export interface TestService {
  dataSource: DataSource;
  producer: EventProducer;
  relay: OutboxRelay;
  outbox: Outbox;
  kafka: Kafka;
  consumer(
    groupId: string, handle: EventHandler<DeliveryRetryDuePayload>, accepts?: EventFilter<DeliveryRetryDuePayload>,
    options?: Pick<ConsumerSpec, 'commitOffsetsEveryMs' | 'fetchWaitMs' | 'lingerMs'> & { idempotent?: boolean },
  ): EventConsumer;
  chunkConsumer(groupId: string, handleChunk: ChunkHandler): EventConsumer;
  close(): Promise<void>;
}

export async function createTestService(url: string, schema: string, brokers: string[], prefix: string): Promise<TestService> {
  const dataSource = new DataSource({ type: 'postgres', url, schema, synchronize: false });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const [{ exists }] = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`${schema}.outbox`]);
  if (!exists) {
    for (const sql of messagingTablesUp(schema)) await dataSource.query(sql);
    await dataSource.query(`CREATE TABLE "${schema}".effects (consumer text NOT NULL, event_id uuid NOT NULL, delivery_id uuid NOT NULL, PRIMARY KEY (consumer, event_id))`);
  }
  const namer = new TopicNamer(prefix);
  const kafka = createKafka({ brokers, clientId: schema });
  const producer = new EventProducer(kafka, namer);
  const relay = new OutboxRelay(dataSource, producer, { schema, idleMs: 50 });
  const outbox = new Outbox(schema, namer, relay.publishCommitted);
  const consumers: EventConsumer[] = [];
  return {
    dataSource, producer, relay, outbox, kafka,
    consumer(groupId, handle, accepts, { idempotent, ...options } = {}) {
      const c = new EventConsumer(kafka, dataSource, producer, namer, schema,
        { groupId, on: [on(DeliveryRetryDue, handle, { accepts, idempotent })], sessionTimeoutMs: 6_000, ...options }, ALL_EVENTS);
      consumers.push(c);
      return c;
    },
    chunkConsumer(groupId, handleChunk) {
      const c = new EventConsumer(kafka, dataSource, producer, namer, schema,
        { groupId, on: [on(DeliveryRetryDue)], handleChunk, sessionTimeoutMs: 6_000 }, ALL_EVENTS);
      consumers.push(c);
      return c;
    },
    async close() {
      await Promise.all(consumers.map((c) => c.stop().catch(() => undefined)));
      await relay.stop();
      await producer.disconnect();
      await dataSource.destroy();
    },
  };
}

/** The effect a consumer group of the test service records for each event: one row per (group, event id). */
export function recordEffect(schema: string, group: string): EventHandler<DeliveryRetryDuePayload> {
  return async (env, m) => {
    await m.query(`INSERT INTO "${schema}".effects (consumer, event_id, delivery_id) VALUES ($1, $2, $3)`, [group, env.eventId, env.payload.deliveryId]);
  };
}
