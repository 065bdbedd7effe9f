import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@owd/database';
import { createTestDatabase, type TestDatabase } from '@owd/testing';
import { MIGRATIONS } from '../src/database/migrations';
import { WorkQueue, type ClaimRequest, type DueAttempt } from '../src/app/delivery/work-queue.repository';

/** The claim query on a real PostgreSQL, without a running worker. */
describe('work queue claims', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let queue: WorkQueue;
  const request: ClaimRequest = { limit: 10, freeByOrigin: {}, perOrigin: 3, leaseMs: 60_000, workerId: 'spec' };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = new DataSource(dataSourceOptions(db.url, { schema: 'dispatcher', migrations: MIGRATIONS }));
    await dataSource.initialize();
    await runMigrations(dataSource, 'dispatcher');
    queue = new WorkQueue(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  beforeEach(() => dataSource.query(`TRUNCATE dispatcher.deliveries CASCADE`));

  async function due(origin: string, count: number, secondsAgo: number, claimedUntil: string | null = null): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      ids.push(id);
      await dataSource.query(
        `INSERT INTO dispatcher.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
         VALUES ($1, 'r', $2, 1, '\\x7b7d', 'x', now(), 'first', 'c')`,
        [id, randomUUID()],
      );
      await dataSource.query(
        `INSERT INTO dispatcher.attempts_due (delivery_id, series, attempt, due_at, origin_key, claimed_until, claim_token)
         VALUES ($1, 1, 1, now() - make_interval(secs => $2), $3, $4::timestamptz, CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE gen_random_uuid() END)`,
        [id, secondsAgo + i, origin, claimedUntil],
      );
    }
    return ids;
  }

  it('takes at most the free slots of each origin, so a backlog to one origin never hides another', async () => {
    await due('https://slow.example', 50, 600);
    const fast = await due('https://fast.example', 2, 1);
    const claimed = await queue.claim(request);
    const byOrigin = (o: string) => claimed.filter((c) => c.originKey === o).length;
    expect(byOrigin('https://slow.example')).toBe(3);
    expect(claimed.filter((c) => c.originKey === 'https://fast.example').map((c) => c.deliveryId).sort()).toEqual([...fast].sort());
  });

  /** `count` attempts to `origin`, due for ten minutes and more, stored in one statement. */
  async function backlog(origin: string, count: number): Promise<void> {
    await dataSource.query(
      `WITH ids AS (SELECT gen_random_uuid() AS id, i FROM generate_series(1, $1::int) i),
            stored AS (
              INSERT INTO dispatcher.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
              SELECT id, 'r', gen_random_uuid(), 1, '\\x7b7d', 'x', now(), 'first', 'c' FROM ids)
       INSERT INTO dispatcher.attempts_due (delivery_id, series, attempt, due_at, origin_key)
       SELECT id, 1, 1, now() - make_interval(secs => 600 + i), $2 FROM ids`,
      [count, origin],
    );
  }

  /** Runs `fn`; the statement it sends through the data source is explained as run (in a transaction rolled back). */
  async function explainedAsRun(fn: () => Promise<unknown>): Promise<{ 'Shared Hit Blocks': number; 'Shared Read Blocks': number }> {
    const query = dataSource.query.bind(dataSource);
    let sent: Parameters<DataSource['query']> | undefined;
    dataSource.query = ((...args: Parameters<DataSource['query']>) => {
      sent = args;
      return query(...args);
    }) as DataSource['query'];
    try {
      await fn();
    } finally {
      dataSource.query = query;
    }
    const [sql, params] = sent ?? [];
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const [row] = await runner.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      return row['QUERY PLAN'][0].Plan;
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it("reads each origin's due rows through the index, not the whole table: a dead receiver's backlog of 20,000 costs a claim a few pages", async () => {
    await backlog('https://dead.example', 20_000);
    const fast = await due('https://fast.example', 2, 1);
    await dataSource.query(`ANALYZE dispatcher.attempts_due`);
    const { 'Shared Hit Blocks': hit, 'Shared Read Blocks': read } = await explainedAsRun(async () => {
      const claimed = await queue.claim({ ...request, freeByOrigin: { 'https://dead.example': 0 } });
      expect(claimed.map((c) => c.deliveryId).sort()).toEqual([...fast].sort());
    });
    const [{ pages }] = await dataSource.query(`SELECT relpages AS pages FROM pg_class WHERE oid = 'dispatcher.attempts_due'::regclass`);
    // The backlog fills a few hundred pages; a claim that read them all (as a DISTINCT over the due rows did) touches
    // every one of them each time.
    expect(pages).toBeGreaterThan(100);
    expect(hit + read).toBeLessThan(100);
  });

  it('counts the attempts already in flight here against their origin', async () => {
    await due('https://a.example', 5, 10);
    await due('https://b.example', 5, 10);
    const claimed = await queue.claim({ ...request, freeByOrigin: { 'https://a.example': 0, 'https://b.example': 1 } });
    expect(claimed.map((c) => c.originKey)).toEqual(['https://b.example']);
  });

  it('never hands out a row twice, skips live leases, and takes back expired ones', async () => {
    await due('https://a.example', 2, 10);
    const [expired] = await due('https://b.example', 1, 10, new Date(Date.now() - 1_000).toISOString());
    await due('https://c.example', 1, 10, new Date(Date.now() + 60_000).toISOString());
    const first = await queue.claim(request);
    expect(first.map((c) => c.deliveryId)).toContain(expired);
    expect(first.find((c) => c.deliveryId === expired)?.claims).toBe(1);
    expect(first).toHaveLength(3);
    expect(await queue.claim(request)).toEqual([]);
  });

  it('respects the overall limit, oldest first', async () => {
    const old = await due('https://a.example', 1, 100);
    await due('https://b.example', 1, 5);
    expect((await queue.claim({ ...request, limit: 1 })).map((c) => c.deliveryId)).toEqual(old);
  });

  /** Deliveries of goals at `origins` (one goal each), stored and not yet due, as new attempts with their bytes at hand. */
  async function stored(origins: string[]): Promise<DueAttempt[]> {
    const work: DueAttempt[] = [];
    for (const origin of origins) {
      const [deliveryId, goalId] = [randomUUID(), randomUUID()];
      await dataSource.query(
        `INSERT INTO dispatcher.goals (goal_id, version, deleted, recipient_url, delivery_mode, secret_ciphertext, origin_key, workspace_id)
         VALUES ($1, 1, false, $2, 'production', NULL, $2, $3)`, [goalId, origin, randomUUID()]);
      const [{ created_at: createdAt }] = await dataSource.query(
        `INSERT INTO dispatcher.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
         VALUES ($1, 'r', $2, 1, '\\x7b7d', 'x', now(), 'first', 'c') RETURNING created_at`, [deliveryId, goalId]);
      work.push({
        deliveryId, series: 1, attempt: 1, causationId: randomUUID(), trace: {},
        delivery: { deliveryId, resultId: 'r', goalId, revision: 1, body: Buffer.from('{}'), bodySha256: 'x', correlationId: 'c', createdAt, goalVersion: null },
      });
    }
    return work;
  }

  it('claims new attempts as it inserts them, within the free slots of each origin and the overall limit, in the order given', async () => {
    const work = await stored(['https://a.example', 'https://a.example', 'https://a.example', 'https://b.example', 'https://c.example', 'https://d.example']);
    const { inserted, claimed } = await dataSource.transaction((m) =>
      queue.addDue(m, work, { ...request, limit: 2, freeByOrigin: { 'https://a.example': 1, 'https://b.example': 0 } }));
    expect(inserted).toBe(6);
    // a has one free slot and b none; c takes the second of the two the limit allows, so d waits.
    expect(claimed.map((c) => c.deliveryId)).toEqual([work[0].deliveryId, work[4].deliveryId]);
    expect(claimed[0]).toMatchObject({ originKey: 'https://a.example', claims: 1, delivery: work[0].delivery, goal: { recipientUrl: 'https://a.example', version: 1 } });
    const rows: { delivery_id: string; claimed: boolean; claimed_by: string | null }[] = await dataSource.query(
      `SELECT delivery_id, claim_token IS NOT NULL AS claimed, claimed_by FROM dispatcher.attempts_due`);
    expect(rows.filter((r) => r.claimed).map((r) => r.delivery_id).sort()).toEqual(claimed.map((c) => c.deliveryId).sort());
    expect(rows.filter((r) => r.claimed).every((r) => r.claimed_by === 'spec')).toBe(true);
    // What was not claimed is due for the worker's own claim.
    expect((await queue.claim({ ...request, freeByOrigin: { 'https://a.example': 3 } })).map((c) => c.deliveryId).sort())
      .toEqual([work[1], work[2], work[3], work[5]].map((w) => w.deliveryId).sort());
  });

  it('claims none of an origin as it inserts while older attempts of that origin wait unclaimed: they start first', async () => {
    const older = await due('https://a.example', 1, 10);
    const work = await stored(['https://a.example', 'https://b.example']);
    const { claimed } = await dataSource.transaction((m) => queue.addDue(m, work, request));
    expect(claimed.map((c) => c.originKey)).toEqual(['https://b.example']);
    expect((await queue.claim({ ...request, limit: 1 })).map((c) => c.deliveryId)).toEqual(older);
  });

  it('claims nothing as it inserts without a request, and inserts an attempt already waiting only once', async () => {
    const work = await stored(['https://a.example']);
    expect((await dataSource.transaction((m) => queue.addDue(m, work, null))).claimed).toEqual([]);
    expect(await dataSource.transaction((m) => queue.addDue(m, work, request))).toEqual({ inserted: 0, claimed: [] });
    expect(await queue.claim(request)).toHaveLength(1);
  });

  it('gives claimed rows back unsent, due at once and their claim not counted; a row claimed again since is left alone', async () => {
    await due('https://a.example', 2, 10);
    const [mine, taken] = await queue.claim(request);
    await queue.release([mine, { ...taken, claimToken: randomUUID() }]);
    const again = await queue.claim(request);
    expect(again.map((c) => [c.deliveryId, c.claims])).toEqual([[mine.deliveryId, 1]]);
    const [row] = await dataSource.query(`SELECT claim_token, claims FROM dispatcher.attempts_due WHERE delivery_id = $1`, [taken.deliveryId]);
    expect(row).toEqual({ claim_token: taken.claimToken, claims: 1 });
  });

  it('gives a postponed row back with a later due time and no claim', async () => {
    await due('https://a.example', 1, 10);
    const [work] = await queue.claim(request);
    await queue.postpone(work, 60_000);
    expect(await queue.claim(request)).toEqual([]);
    const [row] = await dataSource.query(`SELECT claimed_until, claim_token, due_at > now() AS later FROM dispatcher.attempts_due`);
    expect(row).toEqual({ claimed_until: null, claim_token: null, later: true });
  });
});
