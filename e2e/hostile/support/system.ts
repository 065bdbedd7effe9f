import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Kafka, logLevel } from 'kafkajs';
import { Logger, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { Client } from 'pg';
import type { EventDefinition, EventEnvelope } from '@owd/events';
import { EventProducer, TopicNamer } from '@owd/kafka';
import { loggerParams } from '@owd/platform';
import { createTestDatabase, createTestTopics, type TestDatabase } from '@owd/testing';
import { ADDRESS_RESOLVER as DISPATCHER_RESOLVER } from '../../../apps/dispatcher/src/app/delivery/address-resolver';
import { ADDRESS_RESOLVER as API_RESOLVER } from '../../../apps/manifest-api/src/app/goals/address-resolver';
import { CLOCK, type Clock } from '../../../apps/manifest-api/src/app/util/clock';
import { createWorkspace, sendRequest, type HttpAnswer, type RequestOptions } from '../../../apps/manifest-api/test/support/test-app';
import { FakeDns } from './fake-dns';

export { createWorkspace, type HttpAnswer, type RequestOptions };

export interface SystemOptions {
  /** Also run the dispatcher, consuming manifest-api's goal.changed on the same topics. */
  dispatcher?: boolean;
  /** Settings of both services (ALLOWED_TARGET_CIDRS is empty and RATE_LIMIT_PER_MINUTE 1000 unless given). */
  env?: Record<string, string>;
  /** The API's clock (the rate limiter's buckets refill with it); the wall clock unless given. */
  clock?: Clock;
}

/**
 * manifest-api (and optionally the dispatcher) in this process, on one fresh database and topic prefix, with
 * the HTTP setup of main.ts and every DNS answer coming from `dns`: the attacker's resolver.
 */
export interface HostileSystem {
  baseUrl: string;
  adminToken: string;
  dns: FakeDns;
  /** A connection to the test database (every service schema), for counting rows. */
  db: Client;
  prefix: string;
  brokers: string[];
  /** Every log line the API wrote, at every level (trace and up), through the production logger settings. */
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<HttpAnswer>;
  /** Publishes an event as another service would (the dispatcher's input when payload-builder is not running). */
  emit<T extends object>(definition: EventDefinition<T>, payload: T): Promise<EventEnvelope<T>>;
  close(): Promise<void>;
}

export async function startSystem(options: SystemOptions = {}): Promise<HostileSystem> {
  const database: TestDatabase = await createTestDatabase();
  const { prefix, brokers } = await createTestTopics();
  const dns = new FakeDns();
  const adminToken = `adm_${randomBytes(24).toString('hex')}`;
  // Both services read process.env when their AppModule is first imported, so each import follows its settings.
  Object.assign(process.env, {
    DATABASE_URL: database.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, MIGRATE_ON_START: 'true',
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'warn', ALLOWED_TARGET_CIDRS: '', ATTEMPT_TIMEOUT_MS: '2000',
    ADMIN_TOKEN: adminToken, DEV_SINK_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: '1000', PORT: '3000', ...options.env,
  });
  const apps: INestApplication[] = [];
  const { AppModule: ApiModule } = await import('../../../apps/manifest-api/src/app/app.module');
  const { configure } = await import('../../../apps/manifest-api/src/app/configure');
  const logs: string[] = [];
  const builder = Test.createTestingModule({ imports: [ApiModule] }).overrideProvider(API_RESOLVER).useValue(dns)
    .overrideProvider(PARAMS_PROVIDER_TOKEN).useValue(loggerParams('manifest-api', 'trace', { write: (line: string) => void logs.push(line) }));
  if (options.clock) builder.overrideProvider(CLOCK).useValue(options.clock);
  const api = (await builder.compile()).createNestApplication({ bufferLogs: true });
  api.useLogger(api.get(Logger));
  configure(api);
  await api.listen(0, '127.0.0.1');
  apps.push(api);

  if (options.dispatcher) {
    Object.assign(process.env, { PORT: '3002', DEV_SINK_URL: '', RETRY_DELAYS_MS: '200,400', DISPATCH_POLL_MS: '50', ...options.env });
    const { AppModule: DispatcherModule } = await import('../../../apps/dispatcher/src/app/app.module');
    const ref = await Test.createTestingModule({ imports: [DispatcherModule] }).overrideProvider(DISPATCHER_RESOLVER).useValue(dns).compile();
    const dispatcher = ref.createNestApplication({ logger: ['error', 'warn'] });
    await dispatcher.init();
    apps.push(dispatcher);
  }

  const db = new Client({ connectionString: database.url });
  await db.connect();
  const producer = new EventProducer(new Kafka({ brokers, clientId: 'hostile-e2e', logLevel: logLevel.NOTHING }), new TopicNamer(prefix));
  const baseUrl = `http://127.0.0.1:${(api.getHttpServer().address() as { port: number }).port}`;

  const request = (method: string, path: string, opts: RequestOptions = {}): Promise<HttpAnswer> => sendRequest(baseUrl, method, path, opts);

  return {
    baseUrl, adminToken, dns, db, prefix, brokers, logs, request,
    emit: (definition, payload) => producer.emit(definition, payload, { correlationId: randomUUID() }),
    async close() {
      for (const app of apps.reverse()) await app.close();
      await producer.disconnect();
      await db.end();
      await database.drop();
    },
  };
}
