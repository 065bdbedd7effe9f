import {
  Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap,
} from '@nestjs/common';
import { Clock } from './clock.provider';
import { TimerStore, type TimerStats } from './timer.store';
import { timerMetrics } from './timer.metrics';
import { TIMER_SETTINGS, type TimerSettings } from './timer.settings';

const PURGE_EVERY_MS = 60_000;

/** Wait before the next round: until the earliest due timer, at most one poll interval, never a busy spin. */
export function nextPollDelay(now: Date, earliestDueAt: Date | null, pollMs: number): number {
  if (!earliestDueAt) return pollMs;
  const untilDue = earliestDueAt.getTime() - now.getTime();
  // An overdue timer still pending is locked by another replica or was committed a moment ago.
  return untilDue > 0 ? Math.min(pollMs, untilDue) : Math.min(pollMs, 50);
}

/**
 * Fires due timers in rounds. Every replica runs one; SKIP LOCKED in TimerStore.fireDue keeps two
 * replicas from firing the same timer. Shutdown lets the round in flight finish, then stops.
 */
@Injectable()
export class RetryPoller implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetryPoller.name);
  private running = false;
  private loop?: Promise<void>;
  private sleeping?: { deadline: number; timer: NodeJS.Timeout; wake: () => void };
  /** Earliest due time announced while a round was running (its stats may predate that commit). */
  private announced?: number;
  private lastPurge = 0;

  constructor(
    private readonly store: TimerStore,
    private readonly clock: Clock,
    @Inject(TIMER_SETTINGS) private readonly settings: TimerSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.finishSleep();
    await this.loop;
  }

  /** A timer due at `dueAt` was just stored by this process: be awake for it. */
  wakeBy(dueAt: Date): void {
    if (!this.running) return;
    const at = dueAt.getTime();
    if (!this.sleeping) {
      this.announced = Math.min(this.announced ?? at, at);
    } else if (at < this.sleeping.deadline) {
      const { wake } = this.sleeping;
      clearTimeout(this.sleeping.timer);
      this.arm(Math.max(0, at - this.clock.now().getTime()), wake);
    }
  }

  /** One round: fires what is due at the clock's now; returns how long to wait before the next. */
  async round(): Promise<number> {
    this.announced = undefined;
    const { batchSize, pollMs } = this.settings;
    const fired = await this.store.fireDue(this.clock.now(), batchSize);
    if (fired > 0) timerMetrics.fired.inc(fired);
    if (fired === batchSize) return 0;
    const stats = await this.store.stats();
    const now = this.clock.now();
    this.observe(stats, now);
    await this.maybePurge(now);
    const delay = nextPollDelay(now, stats.earliestDueAt, pollMs);
    return this.announced === undefined ? delay : Math.min(delay, Math.max(0, this.announced - now.getTime()));
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay: number;
      try {
        delay = await this.round();
      } catch (err) {
        // Nothing is lost: unfired timers stay pending in the table for the next round.
        this.logger.warn({ msg: 'retry poll round failed; retrying', err });
        delay = this.settings.pollMs;
      }
      if (this.running && delay > 0) await this.sleep(delay);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.arm(ms, resolve));
  }

  private arm(ms: number, wake: () => void): void {
    const timer = setTimeout(() => this.finishSleep(), ms);
    this.sleeping = { deadline: this.clock.now().getTime() + ms, timer, wake };
  }

  private finishSleep(): void {
    if (!this.sleeping) return;
    const { timer, wake } = this.sleeping;
    clearTimeout(timer);
    this.sleeping = undefined;
    wake();
  }

  private observe(stats: TimerStats, now: Date): void {
    timerMetrics.pending.set(stats.pending);
    const late = stats.earliestDueAt ? (now.getTime() - stats.earliestDueAt.getTime()) / 1000 : 0;
    timerMetrics.oldestDueSeconds.set(Math.max(0, late));
  }

  private async maybePurge(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    await this.store.purge(new Date(now.getTime() - this.settings.retainMs));
  }
}
