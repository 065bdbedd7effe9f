import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@owd/database';
import { DEFAULT_RETRY_DELAYS_MS } from '@owd/events';
import type { AttemptResult } from '@owd/http-delivery';
import { Outbox, TopicNamer } from '@owd/kafka';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { MIGRATIONS } from '../src/database/migrations';
import { AttemptRecorder } from '../src/app/delivery/attempt-recorder.service';
import type { StoredDelivery } from '../src/app/delivery/attempt-input';
import type { DeliverySettings } from '../src/app/delivery/delivery.settings';
import type { ClaimedWork } from '../src/app/delivery/work-queue.repository';

const answered = (status: number): AttemptResult => ({
  status, headers: {}, body: 'ok', bodyBytes: Buffer.from('ok'), bodyTruncated: false, durationMs: 4, targetHost: 'cms.example.com', refusedRule: null,
  outcome: status < 300 ? 'delivered' : 'retriable', errorClass: status < 300 ? null : 'http_status', errorMessage: null, conflictRevision: null,
});

/** Recording attempts on a real PostgreSQL, without a running worker. */
describe('attempt recorder', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let recorder: AttemptRecorder;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = new DataSource(dataSourceOptions(db.url, { schema: 'dispatcher', migrations: MIGRATIONS }));
    await dataSource.initialize();
    await runMigrations(dataSource, 'dispatcher');
    const outbox = new Outbox('dispatcher', new TopicNamer('recorder-spec.'), () => undefined);
    recorder = new AttemptRecorder(dataSource, outbox, { retryDelaysMs: DEFAULT_RETRY_DELAYS_MS } as DeliverySettings);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  /** A delivery whose attempt 1 is claimed with the token returned. */
  async function claimed(): Promise<{ work: ClaimedWork; delivery: StoredDelivery }> {
    const goalId = randomUUID();
    const deliveryId = randomUUID();
    const claimToken = randomUUID();
    await dataSource.query(
      `INSERT INTO dispatcher.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
       VALUES ($1, $2, $3, 1, '\\x7b7d', 'x', now(), 'first', $2)`,
      [deliveryId, `res_${deliveryId}`, goalId],
    );
    await dataSource.query(
      `INSERT INTO dispatcher.attempts_due (delivery_id, series, attempt, origin_key, claimed_until, claim_token)
       VALUES ($1, 1, 1, 'https://cms.example.com', now() + interval '1 hour', $2)`,
      [deliveryId, claimToken],
    );
    const delivery: StoredDelivery = { deliveryId, resultId: `res_${deliveryId}`, goalId, revision: 1, body: Buffer.from('{}'), bodySha256: 'x', correlationId: `res_${deliveryId}`, createdAt: new Date(), goalVersion: null };
    return {
      work: { deliveryId, series: 1, attempt: 1, claimToken, claims: 1, causationId: randomUUID(), originKey: 'https://cms.example.com', traceContext: {}, delivery, goal: null },
      delivery,
    };
  }

  it('records attempts that end while another batch is written in one transaction, each with its row, state and event', async () => {
    const items = await Promise.all(Array.from({ length: 10 }, () => claimed()));
    const times = { attemptedAt: new Date(Date.now() - 10), endedAt: new Date() };
    // Ended in one tick: the first is written at once, the nine others wait for it and go together.
    const recorded = await Promise.all(items.map(({ work }, i) => recorder.record(work, answered(i === 0 ? 503 : 204), times)));

    expect(recorded.map((r) => r?.payload.outcome)).toEqual(['retriable', ...Array(9).fill('delivered')]);
    const ids = items.map((i) => i.work.deliveryId);
    const rows: { delivery_id: string; tx: string; event_id: string }[] = await dataSource.query(
      `SELECT delivery_id, xmin::text AS tx, event_id FROM dispatcher.attempts WHERE delivery_id = ANY($1)`, [ids]);
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(2);
    const states: { status: string }[] = await dataSource.query(`SELECT status FROM dispatcher.deliveries WHERE delivery_id = ANY($1) ORDER BY status`, [ids]);
    expect(states.map((s) => s.status)).toEqual([...Array(9).fill('delivered'), 'pending']);
    const [{ due }] = await dataSource.query(`SELECT count(*)::int AS due FROM dispatcher.attempts_due WHERE delivery_id = ANY($1)`, [ids]);
    expect(due).toBe(0);
    // One delivery.attempted per attempt, in the order the attempts were handed over.
    const events: { message_key: string; value: string }[] = await dataSource.query(
      `SELECT message_key, value FROM dispatcher.outbox WHERE message_key = ANY($1) ORDER BY id`, [items.map((i) => i.delivery.resultId)]);
    expect(events.map((e) => e.message_key)).toEqual(items.map((i) => i.delivery.resultId));
    expect(events.map((e) => JSON.parse(e.value).eventId).sort()).toEqual(rows.map((r) => r.event_id).sort());
  });

  it("puts the receiver's answer on the event as received: text as text, bytes with NUL in base64, NUL in headers replaced; none without an answer", async () => {
    const [withAnswer, without] = await Promise.all([claimed(), claimed()]);
    const times = { attemptedAt: new Date(), endedAt: new Date() };
    const answer = { ...answered(400), outcome: 'permanent' as const, headers: { 'x-note': 'a\u0000b', 'set-cookie': ['a=1', 'b=2'] }, body: 'bad\u0000input', bodyBytes: Buffer.from('bad\u0000input') };
    const noAnswer = { ...answered(503), status: null, body: '', bodyBytes: Buffer.alloc(0), errorClass: 'timeout' };
    const [a, b] = await Promise.all([recorder.record(withAnswer.work, answer, times), recorder.record(without.work, noAnswer, times)]);

    expect(a?.payload.response).toEqual({
      headers: { 'x-note': 'a\uFFFDb', 'set-cookie': 'a=1, b=2' }, body: Buffer.from('bad\u0000input').toString('base64'), bodyEncoding: 'base64', truncated: false,
    });
    expect(b?.payload.response).toBeNull();
  });

  it('writes nothing for an attempt whose claim was taken over, and still records the others of its batch', async () => {
    const [lost, kept, other] = await Promise.all([claimed(), claimed(), claimed()]);
    await dataSource.query(`UPDATE dispatcher.attempts_due SET claim_token = gen_random_uuid() WHERE delivery_id = $1`, [lost.work.deliveryId]);
    const times = { attemptedAt: new Date(), endedAt: new Date() };
    const recorded = await Promise.all([other, lost, kept].map(({ work }) => recorder.record(work, answered(204), times)));

    expect(recorded.map((r) => r !== null)).toEqual([true, false, true]);
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM dispatcher.attempts WHERE delivery_id = $1`, [lost.work.deliveryId]);
    expect(n).toBe(0);
    const [{ status }] = await dataSource.query(`SELECT status FROM dispatcher.deliveries WHERE delivery_id = $1`, [lost.work.deliveryId]);
    expect(status).toBe('pending');
  });

  it('records the others one by one when a batch fails, so one bad record does not make their attempts repeat', async () => {
    const [first, good, bad] = await Promise.all([claimed(), claimed(), claimed()]);
    const times = { attemptedAt: new Date(), endedAt: new Date() };
    // A duration no integer column holds: this attempt's row cannot be written, the batch it is in fails.
    const broken = { ...answered(204), durationMs: 2 ** 40 };
    const results = await Promise.allSettled([
      recorder.record(first.work, answered(204), times),
      recorder.record(good.work, answered(204), times),
      recorder.record(bad.work, broken, times),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const rows: { delivery_id: string }[] = await dataSource.query(
      `SELECT delivery_id FROM dispatcher.attempts WHERE delivery_id = ANY($1)`, [[first, good, bad].map((i) => i.work.deliveryId)]);
    expect(rows.map((r) => r.delivery_id).sort()).toEqual([first.work.deliveryId, good.work.deliveryId].sort());
  });
});
