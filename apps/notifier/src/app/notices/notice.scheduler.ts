import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../clock/clock';
import { isoWeek } from './iso-week';
import { NoticeRepository } from './notice.repository';
import { nextRunAt, occurrenceInWeek, parseNoticeSchedule, type NoticeSchedule } from './notice-schedule';
import { isUnfinished, NoticesService } from './notices.service';

/**
 * Fires the weekly run on NOTICE_SCHEDULE. Every replica runs it; the notices table makes that safe.
 * After a start past this week's run time with the week not finished (down at the time, or restarted
 * mid-run), it catches up at once; a run that left notices open is followed up after the claim lease.
 */
@Injectable()
export class NoticeScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NoticeScheduler.name);
  private readonly schedule: NoticeSchedule;
  private readonly followUpMs: number;
  private readonly stopping = new AbortController();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    config: ConfigService,
    private readonly clock: Clock,
    private readonly notices: NoticesService,
    private readonly repository: NoticeRepository,
  ) {
    const text = config.getOrThrow<string>('NOTICE_SCHEDULE');
    const schedule = parseNoticeSchedule(text);
    if (!schedule) throw new Error(`NOTICE_SCHEDULE is not a schedule: ${text}`);
    this.schedule = schedule;
    this.followUpMs = config.getOrThrow<number>('NOTICE_LEASE_SECONDS') * 1000 + 1000;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.schedule.kind === 'off') {
      this.logger.log({ msg: 'notice schedule is off; runs happen only when called' });
      return;
    }
    const now = this.clock.now();
    if (this.schedule.kind === 'weekly' && occurrenceInWeek(this.schedule, now) <= now
      && !(await this.repository.isWeekFinished(isoWeek(now)))) {
      this.trigger('catch-up');
      return;
    }
    this.planNext();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.running;
  }

  /** Settles when the run in progress (if any) is over; for tests and shutdown. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private trigger(reason: string): void {
    this.logger.log({ msg: 'weekly notice run triggered', reason });
    this.running = this.notices.runWeeklyNotices(this.clock.now(), this.stopping.signal)
      .then((summary) => (isUnfinished(summary) ? this.followUpMs : undefined))
      .catch((err: unknown) => {
        this.logger.error({ msg: 'weekly notice run failed; trying again later', err });
        return this.followUpMs;
      })
      .then((followUpMs) => this.planNext(followUpMs));
  }

  private planNext(followUpMs?: number): void {
    if (this.stopping.signal.aborted) return;
    const now = this.clock.now();
    const scheduled = nextRunAt(this.schedule, now);
    if (!scheduled) return;
    const delayMs = Math.max(0, Math.min(scheduled.getTime() - now.getTime(), followUpMs ?? Number.POSITIVE_INFINITY));
    this.timer = setTimeout(() => this.trigger(followUpMs === undefined ? 'schedule' : 'follow-up'), delayMs);
    this.timer.unref();
    this.logger.log({ msg: 'next notice run planned', at: new Date(now.getTime() + delayMs).toISOString() });
  }
}
