import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Consumer, Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  ALL_EVENTS, ContractChanged, createEnvelope, definitionMap, GoalChanged, parseEnvelope, TOPICS, type ContractChangedPayload, type DeliveryRequestedPayload,
  type GoalChangedPayload, type EventDefinition, type EventEnvelope, type ResultStatusChangedPayload,
} from '@owd/events';
import { EventProducer, KAFKA_CLIENT, TopicNamer, toMessage } from '@owd/kafka';
import { createTestDatabase, createTestTopics, waitFor, type TestDatabase } from '@owd/testing';
import { contractSnapshot, goalSnapshot } from './content.factory';

const definitions = definitionMap(ALL_EVENTS);

export interface ParkedMessage {
  key: string;
  value: string;
  reason: string;
}

/** The payload-builder app on a fresh database and topic prefix, plus a reader of what it publishes. */
export class PayloadBuilderHarness {
  readonly requested: EventEnvelope<DeliveryRequestedPayload>[] = [];
  readonly statuses: EventEnvelope<ResultStatusChangedPayload>[] = [];
  readonly parked: ParkedMessage[] = [];
  /** Messages the service published that fail their own event contract (must stay empty). */
  readonly invalid: string[] = [];
  app!: INestApplication;
  dataSource!: DataSource;
  producer!: EventProducer;
  namer!: TopicNamer;
  private db!: TestDatabase;
  private reader?: Consumer;

  async start(env: Record<string, string> = {}): Promise<void> {
    this.db = await createTestDatabase();
    const { brokers, prefix } = await createTestTopics();
    // ConfigModule validates process.env when the app module is first imported.
    Object.assign(process.env, {
      DATABASE_URL: this.db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, MIGRATE_ON_START: 'true',
      PORT: '3901', LOG_LEVEL: 'warn', ...env,
    });
    const { AppModule } = await import('../../src/app/app.module');
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    this.app = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
    await this.app.init();
    this.dataSource = this.app.get(DataSource);
    this.producer = this.app.get(EventProducer);
    this.namer = this.app.get(TopicNamer);
    await this.startReader(this.app.get<Kafka>(KAFKA_CLIENT));
  }

  async stop(): Promise<void> {
    await this.reader?.disconnect();
    await this.app?.close();
    await this.db?.drop();
    if (this.invalid.length > 0) throw new Error(`published events broke their contract: ${this.invalid.join(' | ')}`);
  }

  async publish<T extends object>(definition: EventDefinition<T>, payload: T): Promise<EventEnvelope<T>> {
    return this.producer.emit(definition, payload, { correlationId: definition.keyOf(payload) });
  }

  /** Sends one exact envelope (e.g. the same one twice, as a redelivery would). */
  async send(definition: EventDefinition, envelope: EventEnvelope): Promise<void> {
    await this.producer.sendMessages([toMessage(this.namer, definition, envelope)]);
  }

  /** A new goal (sending immediately unless patched), held by the service before this returns. */
  async goal(workspaceId: string, patch: Partial<GoalChangedPayload> = {}): Promise<string> {
    const goalId = randomUUID();
    await this.handled((await this.publish(GoalChanged, goalSnapshot(goalId, workspaceId, { sendImmediately: true, ...patch }))).eventId);
    return goalId;
  }

  /** A contract for the goal, held by the service before this returns. */
  async contract(goalId: string, workspaceId: string, patch: Partial<ContractChangedPayload>): Promise<void> {
    await this.handled((await this.publish(ContractChanged, contractSnapshot(goalId, workspaceId, patch))).eventId);
  }

  envelope<T extends object>(definition: EventDefinition<T>, payload: T): EventEnvelope<T> {
    return createEnvelope(definition, payload, { correlationId: definition.keyOf(payload) });
  }

  requestedFor(resultId: string): EventEnvelope<DeliveryRequestedPayload>[] {
    return this.requested.filter((e) => e.payload.resultId === resultId);
  }

  statusesFor(resultId: string): ResultStatusChangedPayload[] {
    return this.statuses.filter((e) => e.payload.resultId === resultId).map((e) => e.payload);
  }

  async nextRequested(resultId: string, count = 1, what = 'delivery.requested'): Promise<DeliveryRequestedPayload> {
    const found = await waitFor(() => this.requestedFor(resultId)[count - 1], { what: `${what} #${count} of ${resultId}` });
    return found.payload;
  }

  async status(resultId: string, status: ResultStatusChangedPayload['status'], revision?: number): Promise<ResultStatusChangedPayload> {
    return waitFor(
      () => this.statusesFor(resultId).find((s) => s.status === status && (revision === undefined || s.revision === revision)),
      { what: `status ${status} of ${resultId}` },
    );
  }

  /**
   * Waits until the service has committed the handling of an event: its id is in the inbox, or, for a result.revised
   * (whose ids are not recorded: the result's revision tells a copy), a result event it caused is stored. A revision
   * that changed nothing leaves neither: `consumedEvents` (@owd/testing) tells that one.
   */
  async handled(eventId: string): Promise<void> {
    await waitFor(async () => {
      const rows: unknown[] = await this.dataSource.query(
        `SELECT 1 FROM payload_builder.processed_events WHERE event_id = $1
         UNION ALL SELECT 1 FROM payload_builder.result_events WHERE caused_by = $1`, [eventId]);
      return rows.length > 0;
    }, { what: `event ${eventId} handled` });
  }

  private async startReader(kafka: Kafka): Promise<void> {
    const requested = this.namer.name(TOPICS.DELIVERY_REQUESTED);
    const status = this.namer.name(TOPICS.RESULT_STATUS);
    const dlq = this.namer.deadLetter(TOPICS.RESULT_REVISED);
    this.reader = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, sessionTimeout: 6_000 });
    await this.reader.connect();
    await this.reader.subscribe({ topics: [requested, status, dlq], fromBeginning: true });
    await this.reader.run({
      eachMessage: async ({ topic, message }) => {
        const value = message.value?.toString() ?? '';
        if (topic === dlq) {
          this.parked.push({ key: message.key?.toString() ?? '', value, reason: message.headers?.['dlq-reason']?.toString() ?? '' });
          return;
        }
        const parsed = parseEnvelope(message.value, definitions);
        if (!parsed.ok) this.invalid.push(parsed.reason);
        else if (topic === requested) this.requested.push(parsed.envelope as EventEnvelope<DeliveryRequestedPayload>);
        else this.statuses.push(parsed.envelope as EventEnvelope<ResultStatusChangedPayload>);
      },
    });
  }
}

/** The JSON body a delivery.requested carries. */
export function bodyOf(requested: DeliveryRequestedPayload): Record<string, unknown> {
  return JSON.parse(Buffer.from(requested.bodyBase64, 'base64').toString('utf8'));
}
