import type { DeliveryMode } from '@owd/events';

export interface StoredDelivery {
  deliveryId: string;
  resultId: string;
  goalId: string;
  revision: number;
  body: Buffer;
  bodySha256: string;
  correlationId: string;
  createdAt: Date;
  /** The goal version the body was built under (null from producers that did not say). */
  goalVersion: number | null;
}

export interface GoalSettings {
  goalId: string;
  version: number;
  deleted: boolean;
  recipientUrl: string | null;
  deliveryMode: DeliveryMode;
  secretCiphertext: string | null;
  /** Null for a goal stored before the dispatcher kept it, until its next goal.changed. */
  workspaceId: string | null;
}

/** The goal's columns an attempt needs (`g` goals). */
export const GOAL_COLUMNS = `g.goal_id AS g_goal_id, g.version AS g_version, g.deleted, g.recipient_url, g.delivery_mode, g.secret_ciphertext, g.workspace_id`;

/** The columns of a delivery and its goal's settings that an attempt needs (`d` deliveries, `g` goals). */
export const ATTEMPT_COLUMNS = `d.result_id, d.goal_id, d.revision, d.body, d.body_sha256, d.correlation_id, d.created_at, d.goal_version,
  ${GOAL_COLUMNS}`;

export interface GoalRow {
  g_goal_id: string | null;
  g_version: number;
  deleted: boolean;
  recipient_url: string | null;
  delivery_mode: DeliveryMode;
  secret_ciphertext: string | null;
  workspace_id: string | null;
}

export interface AttemptRow extends GoalRow {
  delivery_id: string;
  result_id: string;
  goal_id: string;
  revision: number;
  body: Buffer;
  body_sha256: string;
  correlation_id: string;
  created_at: Date;
  goal_version: number | null;
}

/** The goal's current delivery settings; null before they arrived. */
export function goalSettings(r: GoalRow): GoalSettings | null {
  return r.g_goal_id === null ? null : {
    goalId: r.g_goal_id, version: r.g_version, deleted: r.deleted, recipientUrl: r.recipient_url, deliveryMode: r.delivery_mode,
    secretCiphertext: r.secret_ciphertext, workspaceId: r.workspace_id,
  };
}

/** What one attempt needs: the frozen delivery and the goal's current delivery settings (null before they arrived). */
export function attemptInput(r: AttemptRow): { delivery: StoredDelivery; goal: GoalSettings | null } {
  return {
    delivery: {
      deliveryId: r.delivery_id, resultId: r.result_id, goalId: r.goal_id, revision: r.revision, body: r.body,
      bodySha256: r.body_sha256, correlationId: r.correlation_id, createdAt: r.created_at, goalVersion: r.goal_version,
    },
    goal: goalSettings(r),
  };
}
