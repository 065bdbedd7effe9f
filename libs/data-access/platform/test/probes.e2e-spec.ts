import { Injectable, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DataSource } from 'typeorm';
import { DeliveryRetryDue } from '@owd/events';
import { messagingTablesUp, MessagingService, on } from '@owd/kafka';
import { createTestDatabase, createTestTopics, waitFor, type TestDatabase } from '@owd/testing';
import { awaitSchema, BaseServiceConfig, PlatformModule } from '../src';
import { ReadinessIndicators } from '../src/lib/readiness';

const SCHEMA = 'probe_test';

class CreateMessaging1700000000000 implements MigrationInterface {
  name = 'CreateMessaging1700000000000';
  async up(q: QueryRunner): Promise<void> {
    for (const sql of messagingTablesUp(SCHEMA)) await q.query(sql);
  }
  async down(): Promise<void> {
    // Not needed by the test.
  }
}

@Injectable()
class RetryConsumer implements OnModuleInit {
  constructor(private readonly messaging: MessagingService) {}
  onModuleInit(): void {
    this.messaging.consume({ groupId: 'probe-test.retries', on: [on(DeliveryRetryDue, async () => undefined)], sessionTimeoutMs: 6_000 });
  }
}

const database = { schema: SCHEMA, migrations: [CreateMessaging1700000000000] };

/** Built once the environment is set: the platform validates its configuration when the module is made. */
class ProbeTestModule {}

type Health = { status: string; info?: Record<string, unknown>; error?: Record<string, unknown> };

describe('health probes of a service on a real broker and database', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let base: string;

  const probe = async (path: string): Promise<{ status: number; body: Health }> => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: (await res.json()) as Health };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const { brokers, prefix } = await createTestTopics(1);
    Object.assign(process.env, {
      PORT: '1', DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, MIGRATE_ON_START: 'false', LOG_LEVEL: 'warn',
    });
    const imports = [PlatformModule.forService({ service: 'probe-test', config: BaseServiceConfig, database })];
    app = await NestFactory.create({ module: ProbeTestModule, imports, providers: [RetryConsumer] }, { logger: false, abortOnError: false });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('keeps readiness down while the schema lacks a migration this build ships, and up once the migration Job ran', async () => {
    const dataSource = app.get(DataSource);
    const readiness = new ReadinessIndicators(new HealthIndicatorService(), dataSource, { consumerGroups: () => [] } as unknown as MessagingService, database);
    expect(await readiness.schema()).toEqual({ schema: { status: 'down', message: 'waiting for the migration Job', pending: ['CreateMessaging1700000000000'] } });
    // `owd <service> await-schema` (the pods' init container) waits exactly as long.
    let waited = false;
    const waiting = awaitSchema(dataSource, SCHEMA, 20).then(() => { waited = true; });
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${SCHEMA}"`);
    await dataSource.runMigrations({ transaction: 'each' });
    await waiting;
    expect(waited).toBe(true);
    expect(await readiness.schema()).toEqual({ schema: { status: 'up', migrations: 1 } });
  });

  it('is ready once database, Kafka, schema and every consumer group are there; live asks nothing of them', async () => {
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    expect(await probe('/health/live')).toEqual({ status: 200, body: { status: 'ok', info: {}, error: {}, details: {} } });
    const ready = await waitFor(async () => {
      const r = await probe('/health/ready');
      return r.status === 200 ? r : undefined;
    }, { what: 'readiness', timeoutMs: 60_000, intervalMs: 200 });
    expect(Object.keys(ready.body.info ?? {}).sort()).toEqual(['consumers', 'database', 'kafka', 'schema']);
    expect((await probe('/health/startup')).status).toBe(200);
    expect(Object.keys((await probe('/health')).body.info ?? {}).sort()).toEqual(['database', 'kafka']);
  });

  it('turns unready, and stays live, when a consumer leaves its group', async () => {
    await app.get(MessagingService).beforeApplicationShutdown('test');
    const ready = await probe('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error?.['consumers']).toEqual({ status: 'down', message: 'consumer groups not joined', waiting: ['probe-test.retries'] });
    expect((await probe('/health/live')).status).toBe(200);
  });
});
