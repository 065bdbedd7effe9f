import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { ProjectionRepository } from '../projection/projection.repository';
import { findFindings, type GoalCheckState } from './findings';
import { isoWeek } from './iso-week';
import { MailSender } from './mail.sender';
import { composeNotice } from './notice-mail';
import { noticeMetrics } from './notice.metrics';
import { NoticeRepository, type SkipReason } from './notice.repository';

const PAGE_SIZE = 500;

export interface NoticeRunSummary {
  week: string;
  goalsChecked: number;
  matching: number;
  sent: number;
  /** Already sent this week by an earlier run or another replica. */
  alreadySent: number;
  /** Claimed by another instance that is (or was, until its lease ends) sending it. */
  heldElsewhere: number;
  /** Permanently refused by the SMTP server, now or earlier this week. */
  refused: number;
  /** Transient failure after the bounded retries; a later run this week tries again. */
  released: number;
  skippedNoOwnerEmail: number;
  skippedDeleted: number;
  /** Stopped early (shutdown); the rest is left to the next run. */
  aborted: boolean;
}

/** True when some notice of the run's week is still open, so a follow-up run should look again. */
export function isUnfinished(summary: NoticeRunSummary): boolean {
  return summary.aborted || summary.heldElsewhere + summary.released > 0;
}

/** The weekly check: per goal, find drift and silence, and send its owner one notice per ISO week. */
@Injectable()
export class NoticesService {
  private readonly logger = new Logger(NoticesService.name);
  private readonly staleAfterDays: number;
  private readonly leaseSeconds: number;
  private readonly senderDomain: string;

  constructor(
    config: ConfigService,
    private readonly projection: ProjectionRepository,
    private readonly notices: NoticeRepository,
    private readonly sender: MailSender,
  ) {
    this.staleAfterDays = config.getOrThrow<number>('STALE_REPORT_AFTER_DAYS');
    this.leaseSeconds = config.getOrThrow<number>('NOTICE_LEASE_SECONDS');
    this.senderDomain = config.getOrThrow<string>('NOTICE_FROM').split('@').pop() ?? 'localhost';
  }

  /** Safe to call any number of times, from any replica: each goal gets at most one notice per week. */
  async runWeeklyNotices(now: Date, signal?: AbortSignal): Promise<NoticeRunSummary> {
    const week = isoWeek(now);
    const owner = randomUUID();
    const summary: NoticeRunSummary = {
      week, goalsChecked: 0, matching: 0, sent: 0, alreadySent: 0, heldElsewhere: 0, refused: 0, released: 0,
      skippedNoOwnerEmail: 0, skippedDeleted: 0, aborted: false,
    };
    await this.notices.startRun(week);
    this.logger.log({ msg: 'weekly notice run started', week, now: now.toISOString() });
    let after: string | null = null;
    pages: for (;;) {
      const page = await this.projection.checkPage(after, PAGE_SIZE);
      for (const state of page) {
        if (signal?.aborted) {
          summary.aborted = true;
          break pages;
        }
        summary.goalsChecked++;
        await this.checkGoal(state, now, week, owner, summary, signal);
      }
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1].goalId;
    }
    if (!isUnfinished(summary)) await this.notices.finishRun(week);
    this.logger.log({ msg: 'weekly notice run finished', ...summary });
    return summary;
  }

  /** Counts a skipped goal once per week, however many runs (follow-ups, shorter schedules, replicas) see it. */
  private async skip(goalId: string, week: string, reason: SkipReason): Promise<boolean> {
    const first = await this.notices.recordSkip(goalId, week, reason);
    if (first) noticeMetrics.skipped.inc({ reason });
    return first;
  }

  private async checkGoal(
    state: GoalCheckState, now: Date, week: string, owner: string, summary: NoticeRunSummary, signal?: AbortSignal,
  ): Promise<void> {
    const findings = findFindings(state, now, this.staleAfterDays);
    if (!findings) {
      summary.matching++;
      return;
    }
    const { goalId, goal } = state;
    if (goal?.deleted) {
      summary.skippedDeleted++;
      await this.skip(goalId, week, 'deleted_goal');
      return;
    }
    if (!goal?.ownerEmail) {
      summary.skippedNoOwnerEmail++;
      if (await this.skip(goalId, week, 'no_owner_email')) {
        this.logger.warn({ msg: 'goal has findings but no owner e-mail; no notice sent', goalId, week });
      }
      return;
    }
    const mail = composeNotice({ goalId, goalName: goal.name, ownerEmail: goal.ownerEmail, week, findings, senderDomain: this.senderDomain });
    const claim = await this.notices.claim(goalId, week, mail, findings, this.leaseSeconds, owner);
    if (claim === 'already_sent') summary.alreadySent++;
    else if (claim === 'held_elsewhere') summary.heldElsewhere++;
    else if (claim === 'failed_this_week') summary.refused++;
    if (claim !== 'claimed') return;

    const outcome = await this.sender.send(mail, signal);
    if (outcome.ok) {
      await this.notices.markSent(goalId, week, outcome.attempts);
      noticeMetrics.sent.inc();
      summary.sent++;
      this.logger.log({ msg: 'notice sent', goalId, week, messageId: mail.messageId, attempts: outcome.attempts });
    } else if (outcome.permanent) {
      await this.notices.markFailed(goalId, week, outcome.attempts, outcome.error);
      summary.refused++;
      this.logger.error({ msg: 'notice refused by the SMTP server; not retried this week', goalId, week, error: outcome.error });
    } else {
      await this.notices.release(goalId, week, outcome.attempts, outcome.error, owner);
      summary.released++;
      this.logger.error({ msg: 'notice not sent after retries; a later run this week tries again', goalId, week, error: outcome.error });
    }
  }
}
