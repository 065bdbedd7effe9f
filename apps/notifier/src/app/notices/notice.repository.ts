import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NoticeFindings } from './findings';
import type { NoticeMail } from './notice-mail';

/** Result of trying to claim the notice of one goal for one week. */
export type ClaimResult = 'claimed' | 'already_sent' | 'held_elsewhere' | 'failed_this_week';

/** Why a goal with findings got no notice: the `reason` label of owd_notices_skipped_total. */
export type SkipReason = 'no_owner_email' | 'deleted_goal';

/** Longer than a week, so a skip is remembered for the whole week it was counted in. */
const SKIP_RETENTION_DAYS = 14;

/**
 * The `notices` table is the exactly-once ledger: one row per (goal, ISO week). A row is claimed
 * (pending, with a lease) before anything is sent, and marked sent after the SMTP server accepted it.
 * Lease times use the database clock, so replicas agree on them.
 */
@Injectable()
export class NoticeRepository {
  constructor(private readonly dataSource: DataSource) {}

  claim(goalId: string, week: string, mail: NoticeMail, findings: NoticeFindings, leaseSeconds: number, owner: string): Promise<ClaimResult> {
    const values = [goalId, week, mail.to, mail.messageId, mail.subject, JSON.stringify(findings), owner, leaseSeconds];
    return this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO notices (goal_id, iso_week, status, recipient, message_id, subject, findings, claimed_by, claimed_until)
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
         ON CONFLICT (goal_id, iso_week) DO NOTHING RETURNING goal_id`,
        values,
      );
      if (inserted.length > 0) return 'claimed';
      // A pending row whose lease ran out belongs to an instance that died or gave up: take it over.
      const [, taken] = (await manager.query(
        `UPDATE notices SET recipient = $3, message_id = $4, subject = $5, findings = $6, claimed_by = $7,
                claimed_until = now() + make_interval(secs => $8), updated_at = now()
          WHERE goal_id = $1 AND iso_week = $2 AND status = 'pending' AND claimed_until < now()`,
        values,
      )) as [unknown, number];
      if (taken > 0) return 'claimed';
      const [row] = (await manager.query(`SELECT status FROM notices WHERE goal_id = $1 AND iso_week = $2`, [goalId, week])) as { status: string }[];
      if (row?.status === 'sent') return 'already_sent';
      return row?.status === 'failed' ? 'failed_this_week' : 'held_elsewhere';
    });
  }

  async markSent(goalId: string, week: string, attempts: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE notices SET status = 'sent', sent_at = now(), attempts = attempts + $3, claimed_until = NULL, last_error = NULL, updated_at = now()
        WHERE goal_id = $1 AND iso_week = $2`,
      [goalId, week, attempts],
    );
  }

  /** A permanent SMTP refusal: not tried again this week. */
  async markFailed(goalId: string, week: string, attempts: number, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notices SET status = 'failed', attempts = attempts + $3, claimed_until = NULL, last_error = $4, updated_at = now()
        WHERE goal_id = $1 AND iso_week = $2 AND status = 'pending'`,
      [goalId, week, attempts, error],
    );
  }

  /** Transient failure after the bounded retries: the lease ends now, so a later run this week takes it over. */
  async release(goalId: string, week: string, attempts: number, error: string, owner: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notices SET claimed_until = now() - interval '1 millisecond', attempts = attempts + $3, last_error = $4, updated_at = now()
        WHERE goal_id = $1 AND iso_week = $2 AND status = 'pending' AND claimed_by = $5`,
      [goalId, week, attempts, error, owner],
    );
  }

  /** A run in progress makes the week unfinished until a run completes, so a restart mid-run catches up. */
  async startRun(week: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO notice_runs (iso_week) VALUES ($1)
       ON CONFLICT (iso_week) DO UPDATE SET started_at = now(), finished_at = NULL`, [week]);
    // Skips only matter within their week; older ones are forgotten (indexed by skipped_at).
    await this.dataSource.query(`DELETE FROM notice_skips WHERE skipped_at < now() - interval '${SKIP_RETENTION_DAYS} days'`);
  }

  /** True the first time a goal is skipped for this reason in this week (by any run or replica): the metric counts goals. */
  async recordSkip(goalId: string, week: string, reason: SkipReason): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO notice_skips (goal_id, iso_week, reason) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING goal_id`,
      [goalId, week, reason]);
    return rows.length > 0;
  }

  /** Recorded once a run of the week left no notice open; a restart then needs no catch-up. */
  async finishRun(week: string): Promise<void> {
    await this.dataSource.query(`UPDATE notice_runs SET finished_at = now() WHERE iso_week = $1`, [week]);
  }

  async isWeekFinished(week: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM notice_runs WHERE iso_week = $1 AND finished_at IS NOT NULL`, [week]);
    return rows.length > 0;
  }
}
