import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { TraceCarrier } from '@owd/kafka';
import {
  ATTEMPT_COLUMNS, attemptInput, GOAL_COLUMNS, goalSettings, type AttemptRow, type GoalRow, type GoalSettings, type StoredDelivery,
} from './attempt-input';

const S = '"dispatcher"';

/** One claimed row of `attempts_due`: attempt `attempt` of series `series` of a delivery. */
export interface ClaimedWork {
  deliveryId: string;
  series: number;
  attempt: number;
  claimToken: string;
  /** How often this row has been claimed; more than once means a worker died or overran its lease. */
  claims: number;
  causationId: string | null;
  originKey: string;
  /** The trace of the event that made this attempt due (empty while tracing is off). */
  traceContext: TraceCarrier;
  /** Read with the claim (one statement): the frozen bytes and the goal's settings, null before they arrived. */
  delivery: StoredDelivery;
  goal: GoalSettings | null;
}

interface ClaimRow extends AttemptRow {
  series: number;
  attempt: number;
  claim_token: string;
  claims: number;
  causation_id: string | null;
  origin_key: string;
  trace_context: TraceCarrier;
}

/** An attempt to make due now; `delivery` when its frozen bytes are at hand (a new delivery), so it can be claimed at once. */
export interface DueAttempt {
  deliveryId: string;
  series: number;
  attempt: number;
  causationId: string;
  trace: TraceCarrier;
  delivery?: StoredDelivery;
}

interface InsertedRow extends GoalRow {
  delivery_id: string;
  claim_token: string | null;
  claims: number;
  origin_key: string;
}

export interface ClaimRequest {
  limit: number;
  /** How much more each origin already holding work here may claim; others may claim `perOrigin`. */
  freeByOrigin: Record<string, number>;
  perOrigin: number;
  leaseMs: number;
  workerId: string;
}

/** The dispatcher's work queue: due attempts, claimed under a lease so a crashed worker's work comes back. */
@Injectable()
export class WorkQueue {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` due rows, at most the free slots of each origin, oldest first, skipping rows
   * other workers hold, and reads what their attempts need in the same statement. Each origin is read through its own index range, so a backlog to one slow
   * receiver never hides another receiver's work.
   */
  async claim(request: ClaimRequest): Promise<ClaimedWork[]> {
    if (request.limit <= 0) return [];
    // TypeORM answers an UPDATE … RETURNING with [rows, affected].
    const [rows]: [ClaimRow[], number] = await this.dataSource.query(
      `WITH RECURSIVE origins AS (
         -- Each origin with a row, one index probe apiece (a loose index scan of (origin_key, due_at)): what a claim
         -- reads grows with the origins, not with the rows: a dead receiver's backlog of thousands costs a probe, not a read.
         (SELECT origin_key FROM ${S}.attempts_due ORDER BY origin_key LIMIT 1)
         UNION ALL
         SELECT (SELECT w.origin_key FROM ${S}.attempts_due w WHERE w.origin_key > o.origin_key ORDER BY w.origin_key LIMIT 1)
           FROM origins o WHERE o.origin_key IS NOT NULL
       ), picked AS (
         SELECT c.delivery_id, c.due_at FROM origins o
          CROSS JOIN LATERAL (
            SELECT w.delivery_id, w.due_at FROM ${S}.attempts_due w
             WHERE w.origin_key = o.origin_key AND w.due_at <= now() AND (w.claimed_until IS NULL OR w.claimed_until < now())
             ORDER BY w.due_at LIMIT GREATEST(COALESCE(($2::jsonb ->> o.origin_key)::int, $3), 0)
          ) c
          ORDER BY c.due_at LIMIT $1
       ), locked AS (
         SELECT w.delivery_id FROM ${S}.attempts_due w JOIN picked p ON p.delivery_id = w.delivery_id
          WHERE w.claimed_until IS NULL OR w.claimed_until < now()
          FOR UPDATE OF w SKIP LOCKED
       )
       UPDATE ${S}.attempts_due w
          SET claimed_until = now() + make_interval(secs => $4), claim_token = gen_random_uuid(),
              claimed_by = $5, claims = w.claims + 1
         FROM locked JOIN ${S}.deliveries d ON d.delivery_id = locked.delivery_id LEFT JOIN ${S}.goals g ON g.goal_id = d.goal_id
        WHERE w.delivery_id = locked.delivery_id
       RETURNING w.delivery_id, w.series, w.attempt, w.claim_token, w.claims, w.causation_id, w.origin_key, w.trace_context, ${ATTEMPT_COLUMNS}`,
      [request.limit, JSON.stringify(request.freeByOrigin), request.perOrigin, request.leaseMs / 1000, request.workerId],
    );
    return rows.map((r) => ({
      deliveryId: r.delivery_id, series: r.series, attempt: r.attempt, claimToken: r.claim_token,
      claims: r.claims, causationId: r.causation_id, originKey: r.origin_key, traceContext: r.trace_context, ...attemptInput(r),
    }));
  }

  /**
   * Makes attempts due now, each counted against its goal's origin (the per-origin limit's key), in one statement;
   * an attempt already waiting for its delivery changes nothing. With `claim`, the attempts whose bytes are at hand
   * are claimed as they are inserted, within the request's limits as `claim()` keeps them (oldest first here: the
   * order given), so the worker sends them without a claim of its own and without reading the body back; but none of
   * an origin that has older attempts waiting unclaimed, so an origin's attempts start in the order they came due.
   * Returns how many rows went in and the claimed work.
   */
  async addDue(manager: EntityManager, due: readonly DueAttempt[], claim: ClaimRequest | null): Promise<{ inserted: number; claimed: ClaimedWork[] }> {
    if (due.length === 0) return { inserted: 0, claimed: [] };
    const limit = claim && due.every((d) => d.delivery) ? claim.limit : 0;
    const rows: InsertedRow[] = await manager.query(
      `WITH due AS (
         SELECT d.delivery_id, d.goal_id, u.series, u.attempt, u.causation_id, COALESCE(g.origin_key, '') AS origin_key, u.trace_context, u.ord
           FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS u(delivery_id, series, attempt, causation_id, trace_context, ord)
           JOIN ${S}.deliveries d ON d.delivery_id = u.delivery_id LEFT JOIN ${S}.goals g ON g.goal_id = d.goal_id
       ), behind AS (
         SELECT o.origin_key FROM (SELECT DISTINCT origin_key FROM due) o
          WHERE EXISTS (SELECT 1 FROM ${S}.attempts_due w
                         WHERE w.origin_key = o.origin_key AND w.due_at <= now() AND (w.claimed_until IS NULL OR w.claimed_until < now()))
       ), fitting AS (
         SELECT due.*, row_number() OVER (PARTITION BY origin_key ORDER BY ord) <= GREATEST(COALESCE(($7::jsonb ->> origin_key)::int, $8), 0)
                AND origin_key NOT IN (SELECT origin_key FROM behind) AS fits
           FROM due
       ), taken AS (
         SELECT fitting.*, fits AND count(*) FILTER (WHERE fits) OVER (ORDER BY ord) <= $6 AS take FROM fitting
       ), inserted AS (
         INSERT INTO ${S}.attempts_due (delivery_id, series, attempt, due_at, causation_id, origin_key, trace_context, claimed_until, claim_token, claimed_by, claims)
         SELECT delivery_id, series, attempt, now(), causation_id, origin_key, trace_context,
                CASE WHEN take THEN now() + make_interval(secs => $9) END, CASE WHEN take THEN gen_random_uuid() END,
                CASE WHEN take THEN $10 END, CASE WHEN take THEN 1 ELSE 0 END
           FROM taken ORDER BY ord
         ON CONFLICT (delivery_id) DO NOTHING
         RETURNING delivery_id, claim_token, claims, origin_key
       )
       SELECT i.delivery_id, i.claim_token, i.claims, i.origin_key, ${GOAL_COLUMNS}
         FROM inserted i JOIN taken t USING (delivery_id) LEFT JOIN ${S}.goals g ON g.goal_id = t.goal_id`,
      [
        due.map((d) => d.deliveryId), due.map((d) => d.series), due.map((d) => d.attempt), due.map((d) => d.causationId),
        due.map((d) => JSON.stringify(d.trace)), limit, JSON.stringify(claim?.freeByOrigin ?? {}), claim?.perOrigin ?? 0,
        (claim?.leaseMs ?? 0) / 1000, claim?.workerId ?? null,
      ],
    );
    const byId = new Map(due.map((d) => [d.deliveryId.toLowerCase(), d]));
    const claimed = rows.flatMap((r): ClaimedWork[] => {
      const d = byId.get(r.delivery_id);
      if (r.claim_token === null || !d?.delivery) return [];
      return [{
        deliveryId: d.deliveryId, series: d.series, attempt: d.attempt, claimToken: r.claim_token, claims: r.claims,
        causationId: d.causationId, originKey: r.origin_key, traceContext: d.trace, delivery: d.delivery, goal: goalSettings(r),
      }];
    });
    return { inserted: rows.length, claimed };
  }

  /** Gives a claimed row back, due again after `delayMs` (e.g. the goal's settings have not arrived yet). */
  async postpone(work: ClaimedWork, delayMs: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${S}.attempts_due SET due_at = now() + make_interval(secs => $3), claimed_until = NULL, claim_token = NULL
        WHERE delivery_id = $1 AND claim_token = $2`,
      [work.deliveryId, work.claimToken, delayMs / 1000],
    );
  }

  /**
   * Gives claimed rows back unsent, due as they were, for any worker to claim at once; the claim they had is not
   * counted (a row claimed too often is given up on). A row whose claim was taken over meanwhile is left alone.
   */
  async release(work: readonly ClaimedWork[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${S}.attempts_due w SET claimed_until = NULL, claim_token = NULL, claimed_by = NULL, claims = greatest(w.claims - 1, 0)
         FROM unnest($1::uuid[], $2::uuid[]) AS c(delivery_id, claim_token)
        WHERE w.delivery_id = c.delivery_id AND w.claim_token = c.claim_token`,
      [work.map((w) => w.deliveryId), work.map((w) => w.claimToken)],
    );
  }

  /** Rows waiting or in flight (the work-queue depth gauge). */
  async depth(): Promise<number> {
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM ${S}.attempts_due`);
    return n;
  }
}
