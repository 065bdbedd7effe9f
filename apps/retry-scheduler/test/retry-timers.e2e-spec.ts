import { randomUUID } from 'node:crypto';
import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { createKafka, TopicNamer } from '@owd/kafka';
import { createTestDatabase, createTestTopics, waitFor, type TestDatabase } from '@owd/testing';
import { Clock } from '../src/app/timers/clock.provider';
import { AttemptPublisher, attempted, inMs, RetryDueInbox, serviceEnv, ShiftedClock } from './support/retry-fixture';

type TimerState = 'pending' | 'fired' | 'cancelled';

/** Far enough ahead that a timer cannot come due by itself during a test, only when the clock is moved past it. */
const HOUR = 3_600_000;

describe('retry-scheduler: durable retry timers on a real broker and database', () => {
  let db: TestDatabase;
  let appModule: Type<unknown>;
  let app: INestApplication;
  let publisher: AttemptPublisher;
  let inbox: RetryDueInbox;
  const clock = new ShiftedClock();

  async function startApp(): Promise<INestApplication> {
    const moduleRef = await Test.createTestingModule({ imports: [appModule] }).overrideProvider(Clock).useValue(clock).compile();
    const instance = moduleRef.createNestApplication({ logger: ['error', 'warn'] });
    await instance.init();
    return instance;
  }

  async function timerStates(deliveryId: string): Promise<TimerState[]> {
    const rows: { state: TimerState }[] = await app.get(DataSource).query(
      `SELECT state FROM retry_scheduler.retry_timer WHERE delivery_id = $1 ORDER BY id`, [deliveryId]);
    return rows.map((r) => r.state);
  }

  /**
   * Proves that nothing more is coming for `resultId`: a timer on the same key (same partition, in order)
   * that is due after everything before it has fired, so every earlier retry-due was published first.
   */
  async function settle(resultId: string, dueInMs = 300): Promise<void> {
    const marker = attempted({ resultId, nextAttemptAt: inMs(dueInMs) });
    await publisher.publish(marker);
    await inbox.next(marker.deliveryId);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const { brokers, prefix } = await createTestTopics();
    Object.assign(process.env, serviceEnv(db.url, brokers, prefix));
    ({ AppModule: appModule } = await import('../src/app/app.module'));
    const kafka = createKafka({ brokers, clientId: 'retry-scheduler-test' });
    const namer = new TopicNamer(prefix);
    publisher = new AttemptPublisher(kafka, namer);
    inbox = await RetryDueInbox.start(brokers, prefix);
    app = await startApp();
    // The first round trip waits for the consumer groups to join; timings below are then meaningful.
    await settle(`res_${randomUUID()}`, 0);
  });

  afterEach(() => {
    clock.reset();
    expect(inbox.invalid).toEqual([]);
  });

  afterAll(async () => {
    await app?.close();
    await inbox?.stop();
    await publisher?.close();
    await db?.drop();
  });

  it('fires retry-due for attempt 2 at nextAttemptAt after a retriable attempt 1, not before', async () => {
    const event = attempted({ nextAttemptAt: inMs(300) });
    const sent = await publisher.publish(event);
    const [due] = await inbox.next(event.deliveryId);
    const nextAttemptAt = Date.parse(event.nextAttemptAt as string);

    expect(due.envelope.payload).toEqual({
      deliveryId: event.deliveryId, resultId: event.resultId, attempt: 2, dueAt: event.nextAttemptAt,
    });
    expect(due.envelope).toMatchObject({ key: event.resultId, correlationId: sent.correlationId, causationId: sent.eventId });
    expect(Date.parse(due.envelope.occurredAt)).toBeGreaterThanOrEqual(nextAttemptAt);
    expect(due.receivedAt).toBeGreaterThanOrEqual(nextAttemptAt);
    // How soon after nextAttemptAt is the poller's wake-up, held by retry.poller.spec on a fixed clock: here a loaded
    // machine's Kafka round trip alone can outlast any bound.
    expect(await timerStates(event.deliveryId)).toEqual(['fired']);
  });

  it('schedules nothing after a failed third attempt, which is final', async () => {
    const event = attempted({ attempt: 3, final: true, nextAttemptAt: null });
    await publisher.publish(event);
    await settle(event.resultId);
    expect(inbox.of(event.deliveryId)).toHaveLength(0);
    expect(await timerStates(event.deliveryId)).toEqual([]);
  });

  it('writes nothing for a series that ends at its first attempt: no timer, no progress row, not even its event id', async () => {
    const event = attempted({ attempt: 1, outcome: 'delivered', status: 204, final: true, nextAttemptAt: null });
    const { eventId } = await publisher.publish(event);
    await settle(event.resultId);
    expect(inbox.of(event.deliveryId)).toHaveLength(0);
    expect(await timerStates(event.deliveryId)).toEqual([]);
    const db = app.get(DataSource);
    const progress: unknown[] = await db.query(`SELECT 1 FROM retry_scheduler.delivery_progress WHERE delivery_id = $1`, [event.deliveryId]);
    expect(progress).toHaveLength(0);
    // Skipped before any transaction: no record of the event that a copy would be checked against.
    const recorded: unknown[] = await db.query(`SELECT 1 FROM retry_scheduler.processed_events WHERE event_id = $1`, [eventId]);
    expect(recorded).toHaveLength(0);
  });

  it('cancels a pending timer when a later attempt is delivered, and nothing fires', async () => {
    const first = attempted({ nextAttemptAt: inMs(HOUR) });
    await publisher.publish(first);
    await waitFor(async () => (await timerStates(first.deliveryId)).join() === 'pending', { what: 'the stored timer' });
    await publisher.publish(attempted({
      deliveryId: first.deliveryId, resultId: first.resultId, attempt: 2, outcome: 'delivered', status: 200, final: true,
    }));
    await waitFor(async () => (await timerStates(first.deliveryId)).join() === 'cancelled', { what: 'the cancelled timer' });
    // Past its due time, and a marker due after it: had it stayed pending, it would fire before the marker.
    clock.skip(HOUR + 60_000);
    await settle(first.resultId, HOUR + 1000);
    expect(inbox.of(first.deliveryId)).toHaveLength(0);
  });

  it('fires once for the same delivery.attempted event published twice, with the same or a new event id', async () => {
    const event = attempted({ nextAttemptAt: inMs(300) });
    const envelope = publisher.envelope(event);
    await publisher.send(envelope, envelope);
    await publisher.publish(event);
    await inbox.next(event.deliveryId);
    await settle(event.resultId);
    expect(inbox.of(event.deliveryId)).toHaveLength(1);
    expect(await timerStates(event.deliveryId)).toEqual(['fired']);
  });

  it('runs a manual-retry series of the same delivery on its own timers after the first series failed', async () => {
    const deliveryId = randomUUID();
    const resultId = `res_${randomUUID()}`;
    const series = { deliveryId, resultId };
    await publisher.publish(attempted({ ...series, attemptedAt: inMs(-300), nextAttemptAt: inMs(100) }));
    await inbox.next(deliveryId, 1);
    await publisher.publish(attempted({ ...series, attempt: 2, attemptedAt: inMs(-200), nextAttemptAt: inMs(100) }));
    await inbox.next(deliveryId, 2);
    await publisher.publish(attempted({ ...series, attempt: 3, attemptedAt: inMs(-100), final: true }));
    // The user retries by hand: a new series of the same delivery starts again at attempt 1.
    const manual = await publisher.publish(attempted({ ...series, nextAttemptAt: inMs(100) }));
    const fired = await inbox.next(deliveryId, 3);
    await settle(resultId);

    expect(inbox.of(deliveryId).map((r) => r.envelope.payload.attempt)).toEqual([2, 3, 2]);
    expect(fired[2].envelope.causationId).toBe(manual.eventId);
  });

  it('ignores an older attempt replayed after a newer one: the cancelled timer stays cancelled', async () => {
    const first = attempted({ nextAttemptAt: inMs(HOUR) });
    await publisher.publish(first);
    await publisher.publish(attempted({
      deliveryId: first.deliveryId, resultId: first.resultId, attempt: 2, outcome: 'permanent', status: 400, final: true,
    }));
    await waitFor(async () => (await timerStates(first.deliveryId)).join() === 'cancelled', { what: 'the cancelled timer' });
    await publisher.publish(first);
    // The replay comes before the marker in its partition: a timer it revived would be due and fire first.
    clock.skip(HOUR + 60_000);
    await settle(first.resultId, HOUR + 1000);
    expect(inbox.of(first.deliveryId)).toHaveLength(0);
    expect(await timerStates(first.deliveryId)).toEqual(['cancelled']);
  });

  it('keeps a timer while the service is down and fires it when a new instance starts', async () => {
    const event = attempted({ nextAttemptAt: inMs(HOUR) });
    await publisher.publish(event);
    await waitFor(async () => (await timerStates(event.deliveryId)).join() === 'pending', { what: 'the stored timer' });
    await app.close();
    // The due time passes while no instance runs.
    clock.skip(HOUR + 60_000);
    expect(inbox.of(event.deliveryId)).toHaveLength(0);

    const restartedAt = Date.now();
    app = await startApp();
    const [due] = await inbox.next(event.deliveryId);
    expect(due.receivedAt).toBeGreaterThanOrEqual(restartedAt);
    expect(due.envelope.payload).toMatchObject({ attempt: 2, dueAt: event.nextAttemptAt });
    await settle(event.resultId);
    expect(inbox.of(event.deliveryId)).toHaveLength(1);
  });

  it('fires each timer exactly once with two instances polling the same table', async () => {
    const second = await startApp();
    try {
      const dueAt = inMs(1500);
      const resultIds = [1, 2, 3].map(() => `res_${randomUUID()}`);
      const events = Array.from({ length: 30 }, (_, i) => attempted({ resultId: resultIds[i % 3], nextAttemptAt: dueAt }));
      for (const e of events) await publisher.publish(e);
      await waitFor(() => events.every((e) => inbox.of(e.deliveryId).length > 0), { what: 'every retry-due' });
      await Promise.all(resultIds.map((r) => settle(r)));
      for (const e of events) expect(inbox.of(e.deliveryId)).toHaveLength(1);
      const [{ n }] = await app.get(DataSource).query(
        `SELECT count(*)::int AS n FROM retry_scheduler.retry_timer WHERE delivery_id = ANY($1::uuid[]) AND state = 'fired'`,
        [events.map((e) => e.deliveryId)]);
      expect(n).toBe(events.length);
    } finally {
      await second.close();
    }
  });
});
