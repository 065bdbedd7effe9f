import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Outbox } from '@owd/kafka';
import { requestRetries } from '../delivery-state/request-retries';
import { GoalStore } from '../goals/goal-store.service';
import { problems } from '../http/problem';
import type { LastError } from '../results/result.entity';
import type { CreateRecoveryDto } from './dto/create-recovery.dto';
import type { FailedDeliveriesQuery } from './dto/failed-deliveries.query';
import { decodeCursor, encodeCursor } from './failure-cursor';
import type { FailedDeliveryPageView, RecoveryView } from './recovery.views';

/** Most deliveries one recovery retries; the answer's `remaining` says how many another run would take. */
export const MAX_RECOVERY = 1000;

interface FailedRow {
  id: string;
  goal_id: string;
  goal_name: string;
  title: string | null;
  state_revision: number;
  delivery_id: string;
  failed_at: Date;
  failed_key: string;
  state_reason: string | null;
  last_error: LastError | null;
}

interface RecoveryRow {
  id: string;
  goal_id: string | null;
  since: Date;
  error_class: string | null;
  count: number;
  remaining: number;
  created_at: Date;
  delivered: number;
  failed: number;
  pending: number;
}

/**
 * Failed deliveries of a workspace ($1), newest first, narrowed by goal ($2), time ($3, $4) and error class ($5). They are
 * read through `failed_results` (its rows are the failed results, `failed_at` their `state_updated_at`), whose index
 * keeps them in that order: `results` itself has no index on its state, so that state changes stay HOT updates.
 */
const FAILED = `FROM manifest_api.failed_results f JOIN manifest_api.results r ON r.id = f.result_id
  JOIN manifest_api.goals g ON g.id = r.goal_id AND g.deleted_at IS NULL
  WHERE f.workspace_id = $1 AND r.state = 'failed' AND r.delivery_id IS NOT NULL
    AND ($2::uuid IS NULL OR r.goal_id = $2) AND ($3::timestamptz IS NULL OR f.failed_at >= $3)
    AND ($4::timestamptz IS NULL OR f.failed_at < $4) AND ($5::text IS NULL OR r.last_error->>'errorClass' = $5)`;

/**
 * The cross-goal view of failed deliveries, and bulk recovery: each failed delivery retried by hand as
 * a new series with the same bytes (delivery.retry-requested, as the single retry does). A failure is
 * recovered once: its result leaves `failed` in the same transaction, and (delivery, failure time) is unique.
 */
@Injectable()
export class RecoveriesService {
  constructor(private readonly dataSource: DataSource, private readonly outbox: Outbox, private readonly goals: GoalStore) {}

  async failed(workspaceId: string, query: FailedDeliveriesQuery): Promise<FailedDeliveryPageView> {
    if (query.goalId) await this.goals.find(workspaceId, query.goalId);
    const limit = query.limit ?? 50;
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows: FailedRow[] = await this.dataSource.query(
      `SELECT r.id, r.goal_id, g.name AS goal_name, r.content->>'title' AS title, r.state_revision, r.delivery_id,
              f.failed_at, to_char(f.failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS failed_key,
              r.state_reason, r.last_error
         ${FAILED} AND ($6::timestamptz IS NULL OR (f.failed_at, f.result_id) < ($6::timestamptz, $7::text))
        ORDER BY f.failed_at DESC, f.result_id DESC LIMIT $8`,
      [workspaceId, query.goalId ?? null, query.since ?? null, query.until ?? null, query.errorClass ?? null,
        after?.failedAt ?? null, after?.resultId ?? null, limit + 1],
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map((r) => ({
        resultId: r.id, goalId: r.goal_id, goalName: r.goal_name, title: r.title, revision: r.state_revision, deliveryId: r.delivery_id,
        failedAt: r.failed_at.toISOString(), reason: r.state_reason, lastError: r.last_error,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor({ failedAt: last.failed_key, resultId: last.id }) : null,
    };
  }

  /** Retries every matching failed delivery (at most MAX_RECOVERY) in one transaction with a fixed number of statements. */
  async recover(workspaceId: string, body: CreateRecoveryDto, requestedBy: string | undefined): Promise<RecoveryView> {
    const id = randomUUID();
    await this.dataSource.transaction(async (m) => {
      if (body.goalId) await this.goals.find(workspaceId, body.goalId, m);
      const filter = [workspaceId, body.goalId ?? null, body.since, null, body.errorClass ?? null];
      await m.query(
        `INSERT INTO manifest_api.recoveries (id, workspace_id, goal_id, since, error_class, requested_by, count, remaining)
         VALUES ($1, $2, $3, $4, $5, $6, 0, 0)`,
        [id, workspaceId, body.goalId ?? null, body.since, body.errorClass ?? null, requestedBy ?? null],
      );
      // Locked oldest first; a row another recovery took meanwhile no longer matches when its lock is granted.
      const picked: { result_id: string; goal_id: string; delivery_id: string }[] = await m.query(
        `WITH failed AS (SELECT r.id, r.goal_id, r.delivery_id, r.state_updated_at ${FAILED}
            ORDER BY f.failed_at, f.result_id LIMIT $7 FOR UPDATE OF r)
         , recovered AS (INSERT INTO manifest_api.recovery_items (recovery_id, result_id, delivery_id, failed_at)
            SELECT $6, id, delivery_id, state_updated_at FROM failed
            ON CONFLICT (delivery_id, failed_at) DO NOTHING RETURNING result_id)
         SELECT f.id AS result_id, f.goal_id, f.delivery_id FROM recovered JOIN failed f ON f.id = recovered.result_id ORDER BY f.state_updated_at, f.id`,
        [...filter, id, MAX_RECOVERY],
      );
      await requestRetries(m, this.outbox, picked.map((p) => ({ resultId: p.result_id, goalId: p.goal_id, deliveryId: p.delivery_id })),
        `retried by recovery ${id}`);
      await m.query(
        `UPDATE manifest_api.recoveries SET count = $6, remaining = (SELECT count(*)::int ${FAILED}) WHERE id = $7`,
        [...filter, picked.length, id],
      );
    });
    return this.get(workspaceId, id);
  }

  async get(workspaceId: string, id: string): Promise<RecoveryView> {
    const [row]: RecoveryRow[] = await this.dataSource.query(
      `SELECT v.id, v.goal_id, v.since, v.error_class, v.count, v.remaining, v.created_at,
              count(r.id) FILTER (WHERE r.state = 'delivered')::int AS delivered,
              count(r.id) FILTER (WHERE r.state IN ('failed', 'rejected'))::int AS failed,
              count(r.id) FILTER (WHERE r.state NOT IN ('delivered', 'failed', 'rejected'))::int AS pending
         FROM manifest_api.recoveries v
         LEFT JOIN manifest_api.recovery_items i ON i.recovery_id = v.id
         LEFT JOIN manifest_api.results r ON r.id = i.result_id
        WHERE v.id = $1 AND v.workspace_id = $2
        GROUP BY v.id`,
      [id, workspaceId],
    );
    if (!row) throw problems.notFound('The recovery');
    return {
      id: row.id, goalId: row.goal_id, since: row.since.toISOString(), errorClass: row.error_class, count: row.count, remaining: row.remaining,
      progress: { delivered: row.delivered, failed: row.failed, pending: row.pending }, done: row.pending === 0, createdAt: row.created_at.toISOString(),
    };
  }
}
