import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResultEvent, ResultEventData } from './result-event.types';
import { applyResultEvent, emptyProjection, type ResultProjection, type ResultState } from './result-state';

interface ResultRow {
  result_id: string;
  goal_id: string | null;
  workspace_id: string | null;
  revision: number;
  upstream_revision: number;
  text_only_change: boolean;
  content: unknown;
  status: ResultState;
  status_reason: string | null;
  status_revision: number;
  missing_fields: string[];
  approved_revision: number;
  field_values: Record<string, unknown>;
  frozen_revisions: number[];
  last_delivery_id: string | null;
  conflicts: number;
  conflict_revision: number;
  last_seq: number;
  updated_at: Date;
}

export interface ResultEventRow {
  result_id: string;
  seq: number;
  data: ResultEventData;
  occurred_at: Date;
  caused_by: string | null;
}

// Two-key advisory locks: (namespace, hashtext(id)). A goal lock is taken before a result lock, never after.
const GOAL_LOCK = 'payload_builder.goal';
const RESULT_LOCK = 'payload_builder.result';

/** Reads and writes the lifecycle (`result_events`, append-only) and its projection (`results`). */
@Injectable()
export class ResultStore {
  /** Result handlers share a goal; a goal's own change excludes them, so neither misses the other's rows. */
  async lockGoal(manager: EntityManager, goalId: string, mode: 'shared' | 'exclusive'): Promise<void> {
    const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    await manager.query(`SELECT ${fn}(hashtext($1), hashtext($2))`, [GOAL_LOCK, goalId]);
  }

  /** Serialises the handlers of one result across topics and replicas for the rest of the transaction. */
  async lockResult(manager: EntityManager, resultId: string): Promise<ResultProjection> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))`, [RESULT_LOCK, resultId]);
    const [row]: ResultRow[] = await manager.query(`SELECT * FROM results WHERE result_id = $1`, [resultId]);
    return row ? fromRow(row) : emptyProjection(resultId);
  }

  /** Result ids of a goal whose current revision has not been frozen yet. */
  async unsentOfGoal(manager: EntityManager, goalId: string): Promise<string[]> {
    const rows: { result_id: string }[] = await manager.query(
      `SELECT result_id FROM results WHERE goal_id = $1 AND revision > 0 AND NOT (revision = ANY(frozen_revisions))
       ORDER BY result_id`,
      [goalId],
    );
    return rows.map((r) => r.result_id);
  }

  /** Appends one event and returns the projection with it applied (the caller saves it once at the end). */
  async append(manager: EntityManager, state: ResultProjection, data: ResultEventData, causedBy: string | null): Promise<ResultProjection> {
    const event: ResultEvent = { resultId: state.resultId, seq: state.lastSeq + 1, data, occurredAt: new Date(), causedBy };
    await manager.query(
      `INSERT INTO result_events (result_id, seq, type, data, occurred_at, caused_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [event.resultId, event.seq, data.type, JSON.stringify(data), event.occurredAt, causedBy],
    );
    return applyResultEvent(state, event);
  }

  async save(manager: EntityManager, state: ResultProjection): Promise<void> {
    await manager.query(
      `INSERT INTO results (result_id, goal_id, workspace_id, revision, upstream_revision, text_only_change, content,
         status, status_reason, status_revision, missing_fields, approved_revision, field_values, frozen_revisions,
         last_delivery_id, conflicts, conflict_revision, last_seq, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
       ON CONFLICT (result_id) DO UPDATE SET goal_id = EXCLUDED.goal_id, workspace_id = EXCLUDED.workspace_id,
         revision = EXCLUDED.revision, upstream_revision = EXCLUDED.upstream_revision,
         text_only_change = EXCLUDED.text_only_change, content = EXCLUDED.content, status = EXCLUDED.status,
         status_reason = EXCLUDED.status_reason, status_revision = EXCLUDED.status_revision, missing_fields = EXCLUDED.missing_fields,
         approved_revision = EXCLUDED.approved_revision, field_values = EXCLUDED.field_values,
         frozen_revisions = EXCLUDED.frozen_revisions, last_delivery_id = EXCLUDED.last_delivery_id,
         conflicts = EXCLUDED.conflicts, conflict_revision = EXCLUDED.conflict_revision, last_seq = EXCLUDED.last_seq,
         updated_at = EXCLUDED.updated_at`,
      [state.resultId, state.goalId, state.workspaceId, state.revision, state.upstreamRevision, state.textOnlyChange,
        JSON.stringify(state.content), state.state, state.stateReason, state.stateRevision, state.missingFields, state.approvedRevision,
        JSON.stringify(state.fieldValues), state.frozenRevisions, state.lastDeliveryId, state.conflicts,
        state.conflictRevision, state.lastSeq, state.updatedAt],
    );
  }
}

export function toResultEvent(row: ResultEventRow): ResultEvent {
  return { resultId: row.result_id, seq: row.seq, data: row.data, occurredAt: row.occurred_at, causedBy: row.caused_by };
}

function fromRow(row: ResultRow): ResultProjection {
  return {
    resultId: row.result_id, goalId: row.goal_id, workspaceId: row.workspace_id, revision: row.revision,
    upstreamRevision: row.upstream_revision, textOnlyChange: row.text_only_change, content: row.content,
    state: row.status, stateReason: row.status_reason, stateRevision: row.status_revision, missingFields: row.missing_fields,
    approvedRevision: row.approved_revision, fieldValues: row.field_values, frozenRevisions: row.frozen_revisions,
    lastDeliveryId: row.last_delivery_id, conflicts: row.conflicts, conflictRevision: row.conflict_revision,
    lastSeq: row.last_seq, updatedAt: row.updated_at,
  };
}
