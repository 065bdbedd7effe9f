import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import {
  DeliveryAttempted, DeliveryRequested, GoalChanged, TOPICS, type DeliveryAttemptedPayload, type DeliveryRequestedPayload, type EventDefinition,
  type EventEnvelope, type GoalChangedPayload,
} from '@owd/events';
import { EventProducer, TopicNamer } from '@owd/kafka';
import { parseEncryptionKey, SecretBox } from '@owd/secret-box';
import { createTestDatabase, createTestTopics, TopicReader, waitFor, type ReadMessage, type TestDatabase } from '@owd/testing';

export const TEST_ENCRYPTION_KEY = randomBytes(32).toString('base64');

export interface GoalOptions {
  url: string | null;
  mode?: 'test' | 'production';
  secret?: string;
  version?: number;
  deleted?: boolean;
  goalId?: string;
  workspaceId?: string;
}

export interface RequestedDelivery extends DeliveryRequestedPayload {
  body: Buffer;
  /** Id of the `delivery.requested` event that carried it. */
  eventId: string;
}

/**
 * The dispatcher as it runs (AppModule, real Kafka, real PostgreSQL, its own database and topic prefix),
 * with a producer for the events it consumes and a reader of every `delivery.attempted` it publishes.
 */
export interface DispatcherHarness {
  app: INestApplication;
  db: Client;
  attempted: EventEnvelope<DeliveryAttemptedPayload>[];
  /** Raw `delivery.attempted` message values, to check what never appears in them. */
  rawAttempted: string[];
  /** Every `delivery.attempted` message as read from the topic (key, headers, value). */
  attemptedMessages: ReadMessage[];
  emit<T extends object>(definition: EventDefinition<T>, payload: T): Promise<EventEnvelope<T>>;
  /** Publishes a goal snapshot and waits until the dispatcher holds it (or a newer one). */
  goal(options: GoalOptions): Promise<string>;
  /**
   * Waits until the dispatcher's consumer `group` has committed the effect of event `eventId` (its id recorded). Not
   * for `delivery.requested`, whose ids are not recorded: `held`, and `consumedEvents` (@owd/testing) for a copy.
   */
  processed(group: 'dispatcher.goals' | 'dispatcher.deliveries', eventId: string): Promise<void>;
  /** Waits until the dispatcher holds the delivery (its `deliveries` row committed). */
  held(deliveryId: string): Promise<void>;
  request(goalId: string, overrides?: Partial<DeliveryRequestedPayload> & { body?: Buffer }): Promise<RequestedDelivery>;
  attemptsOf(deliveryId: string): DeliveryAttemptedPayload[];
  waitForAttempt(deliveryId: string, attempt: number, series?: number): Promise<DeliveryAttemptedPayload>;
  stopApp(): Promise<void>;
  close(): Promise<void>;
}

export async function startDispatcher(env: Record<string, string>): Promise<DispatcherHarness> {
  const database: TestDatabase = await createTestDatabase();
  const { prefix, brokers } = await createTestTopics();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_PREFIX: prefix,
    MIGRATE_ON_START: 'true',
    SECRET_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: 'warn',
    ...env,
  });
  // Imported only now: the configuration is read and validated when the module is first loaded.
  const { AppModule } = await import('../../src/app/app.module');
  const app = await NestFactory.create(AppModule, { logger: process.env['E2E_VERBOSE'] ? ['error', 'warn', 'log'] : ['error', 'warn'], abortOnError: false });
  await app.init();

  const kafka = new Kafka({ brokers, clientId: 'dispatcher-e2e', logLevel: logLevel.NOTHING });
  const producer = new EventProducer(kafka, new TopicNamer(prefix));
  const reader = await new TopicReader(brokers, prefix, [TOPICS.DELIVERY_ATTEMPTED]).start();
  const db = new Client({ connectionString: database.url });
  await db.connect();
  const box = new SecretBox(parseEncryptionKey(TEST_ENCRYPTION_KEY));
  let appStopped = false;

  const attemptsOf = (deliveryId: string) =>
    reader.all<DeliveryAttemptedPayload>(DeliveryAttempted.type, (p) => p.deliveryId === deliveryId).map((e) => e.payload);

  const harness: DispatcherHarness = {
    app, db, attemptsOf,
    get attempted() {
      return reader.all<DeliveryAttemptedPayload>(DeliveryAttempted.type);
    },
    get rawAttempted() {
      return reader.messages.map((m) => m.raw);
    },
    get attemptedMessages() {
      return reader.messages;
    },
    emit: (definition, payload) => producer.emit(definition, payload, { correlationId: randomUUID() }),
    async goal(options) {
      const goalId = options.goalId ?? randomUUID();
      const payload: GoalChangedPayload = {
        goalId, workspaceId: options.workspaceId ?? randomUUID(), version: options.version ?? 1, deleted: options.deleted ?? false,
        name: 'e2e goal', sourceLang: 'en', recipientUrl: options.url, deliveryMode: options.mode ?? 'production',
        secretCiphertext: options.secret ? box.seal(options.secret, goalId) : null,
        sendImmediately: true, secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null, fieldDefaults: {},
      };
      const envelope = await harness.emit(GoalChanged, payload);
      await harness.processed('dispatcher.goals', envelope.eventId);
      return goalId;
    },
    async processed(group, eventId) {
      await waitFor(async () => {
        const { rowCount } = await db.query(`SELECT 1 FROM dispatcher.processed_events WHERE consumer = $1 AND event_id = $2`, [group, eventId]);
        return rowCount === 1;
      }, { what: `event ${eventId} processed by ${group}`, timeoutMs: 30_000 });
    },
    async held(deliveryId) {
      await waitFor(async () => {
        const { rowCount } = await db.query(`SELECT 1 FROM dispatcher.deliveries WHERE delivery_id = $1`, [deliveryId]);
        return rowCount === 1;
      }, { what: `delivery ${deliveryId} held`, timeoutMs: 30_000 });
    },
    async request(goalId, overrides = {}) {
      const { body: givenBody, ...rest } = overrides;
      const body = givenBody ?? Buffer.from(JSON.stringify({ payload_version: 5, result_id: 'r', text: `héllo ${randomUUID()}` }));
      const payload: DeliveryRequestedPayload = {
        deliveryId: randomUUID(), resultId: `res_${randomUUID()}`, goalId, revision: 1,
        bodyBase64: body.toString('base64'), bodySha256: createHash('sha256').update(body).digest('hex'),
        executedAt: new Date().toISOString(), reason: 'first', ...rest,
      };
      const envelope = await harness.emit(DeliveryRequested, payload);
      return { ...payload, body, eventId: envelope.eventId };
    },
    waitForAttempt: (deliveryId, attempt, series = 1) =>
      waitFor(() => attemptsOf(deliveryId).find((p) => p.attempt === attempt && p.series === series), {
        what: `attempt ${attempt} (series ${series}) of delivery ${deliveryId}`, timeoutMs: 30_000,
      }),
    async stopApp() {
      if (appStopped) return;
      appStopped = true;
      await app.close();
    },
    async close() {
      await harness.stopApp();
      await reader.stop();
      await producer.disconnect();
      await db.end();
      await database.drop();
    },
  };
  return harness;
}
