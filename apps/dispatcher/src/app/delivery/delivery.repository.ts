import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DeliveryMode } from '@owd/events';

const S = '"dispatcher"';

export interface StoredDelivery {
  deliveryId: string;
  resultId: string;
  goalId: string;
  revision: number;
  body: Buffer;
  bodySha256: string;
  correlationId: string;
  createdAt: Date;
}

export interface GoalSettings {
  goalId: string;
  deleted: boolean;
  recipientUrl: string | null;
  deliveryMode: DeliveryMode;
  secretCiphertext: string | null;
}

/** Reads what one attempt needs: the frozen delivery and the goal's current delivery settings. */
@Injectable()
export class DeliveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async load(deliveryId: string): Promise<{ delivery: StoredDelivery; goal: GoalSettings | null } | null> {
    const rows = await this.dataSource.query(
      `SELECT d.delivery_id, d.result_id, d.goal_id, d.revision, d.body, d.body_sha256, d.correlation_id, d.created_at,
              g.goal_id AS g_goal_id, g.deleted, g.recipient_url, g.delivery_mode, g.secret_ciphertext
         FROM ${S}.deliveries d LEFT JOIN ${S}.goals g ON g.goal_id = d.goal_id
        WHERE d.delivery_id = $1`,
      [deliveryId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      delivery: {
        deliveryId: r.delivery_id, resultId: r.result_id, goalId: r.goal_id, revision: r.revision, body: r.body,
        bodySha256: r.body_sha256, correlationId: r.correlation_id, createdAt: r.created_at,
      },
      goal: r.g_goal_id === null ? null : {
        goalId: r.g_goal_id, deleted: r.deleted, recipientUrl: r.recipient_url, deliveryMode: r.delivery_mode,
        secretCiphertext: r.secret_ciphertext,
      },
    };
  }
}
