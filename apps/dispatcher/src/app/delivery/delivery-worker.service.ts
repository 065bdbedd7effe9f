import {
  Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap,
} from '@nestjs/common';
import type { AttemptResult } from '@owd/http-delivery';
import { WakeableSleep, withTraceContext } from '@owd/kafka';
import { AttemptRecorder } from './attempt-recorder.service';
import { AttemptSender, NOT_SENT, notSent } from './attempt-sender.service';
import { traceAttempt } from './attempt-span';
import { CLOCK, type Clock } from './clock';
import { deliveryMetrics } from './delivery.metrics';
import { DELIVERY_SETTINGS, type DeliverySettings } from './delivery.settings';
import { OriginLimiter } from './origin-limiter';
import { WorkQueue, type ClaimedWork } from './work-queue.repository';

/** A row claimed this often has taken its workers down with it (or overrun every lease): give up on it. */
const MAX_CLAIMS = 5;
/** How soon an attempt whose goal settings have not arrived yet looks again. */
const GOAL_RECHECK_MS = 1_000;
const DEPTH_EVERY_MS = 5_000;

/**
 * Claims due attempts and sends them, at most DISPATCH_CONCURRENCY at once and DISPATCH_PER_ORIGIN per
 * origin, so a slow receiver only ever holds its own slots. Nothing here runs inside a Kafka handler.
 * SIGTERM: stop claiming, let the attempts in flight finish (each is bounded by the attempt timeout)
 * and record them; MessagingService then drains the consumers and publishes the outbox.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly limiter: OriginLimiter;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop?: Promise<void>;
  private readonly idle = new WakeableSleep();
  private lastDepthAt = 0;
  /**
   * The last claim may have left due work behind: it took as many as it could, or an origin's slots are all taken.
   * Only then does a finished attempt wake the loop to claim again; new work wakes it by itself (intake, poll).
   */
  private mayHaveMore = false;

  constructor(
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly queue: WorkQueue,
    private readonly sender: AttemptSender,
    private readonly recorder: AttemptRecorder,
  ) {
    this.limiter = new OriginLimiter(settings.perOrigin);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
    this.logger.log({ msg: 'delivery worker stopped claiming; finishing attempts in flight', inFlight: this.inFlight.size, signal });
    await Promise.allSettled([...this.inFlight]);
  }

  /** Attempts being sent or recorded right now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  kick = (): void => this.idle.wake();

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.settings.concurrency - this.inFlight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const work = await this.queue.claim({
            limit: free,
            freeByOrigin: this.limiter.freeSlots(),
            perOrigin: this.settings.perOrigin,
            leaseMs: this.settings.leaseMs,
            workerId: this.settings.workerId,
          });
          for (const item of work) this.start(item);
          claimed = work.length;
          this.mayHaveMore = claimed >= free || this.limiter.anyFull();
          await this.updateDepth();
        } catch (err) {
          this.logger.warn({ msg: 'claiming due attempts failed; trying again', err });
          await this.idle.sleep(1_000);
          continue;
        }
      }
      // More may be due right away; otherwise wait for the poll or for a slot to free up.
      if (claimed === 0 || this.inFlight.size >= this.settings.concurrency) await this.idle.sleep(this.settings.pollMs);
    }
  }

  private start(work: ClaimedWork): void {
    this.limiter.acquire(work.originKey);
    deliveryMetrics.inFlight.inc();
    // The origin's slot protects the receiver: it is given back as soon as the request is over, before the attempt
    // is recorded; the process-wide slot is given back once it is recorded. Each frees a slot the loop may claim for.
    let holdsOrigin = true;
    const slotFreed = (): void => {
      if (holdsOrigin) this.limiter.release(work.originKey);
      holdsOrigin = false;
      if (this.mayHaveMore) this.kick();
    };
    // In the trace of the event that made the attempt due (stored with the work row).
    const task: Promise<void> = withTraceContext(work.traceContext, () => this.attempt(work, slotFreed))
      .catch((err: unknown) => {
        // The claim stays until its lease expires; then the attempt is made again with the same bytes.
        this.logger.error({ msg: 'attempt could not be completed; it is retried after its lease', deliveryId: work.deliveryId, err });
      })
      .finally(() => {
        this.inFlight.delete(task);
        deliveryMetrics.inFlight.dec();
        slotFreed();
      });
    this.inFlight.add(task);
  }

  /** Makes the attempt; `requestOver` is called once nothing more goes to the receiver. */
  private async attempt(work: ClaimedWork, requestOver: () => void): Promise<void> {
    const { delivery, goal } = work;
    const attemptedAt = this.clock.now();
    let result: AttemptResult;
    if (work.claims > MAX_CLAIMS) {
      result = notSent('', NOT_SENT.ABANDONED, `the attempt was interrupted ${work.claims - 1} times; given up`);
    } else if (!goal || (delivery.goalVersion !== null && goal.version < delivery.goalVersion)) {
      // The goal's settings (or the version the body was built under) have not arrived yet: goal.changed and
      // delivery.requested are different topics. Sending with older settings could go to the wrong place.
      if (attemptedAt.getTime() - delivery.createdAt.getTime() < this.settings.goalWaitMs) {
        await this.queue.postpone(work, GOAL_RECHECK_MS);
        return;
      }
      result = notSent('', NOT_SENT.GOAL_UNKNOWN, "the goal's delivery settings never arrived");
    } else {
      result = await traceAttempt(delivery, work, () => this.sender.send(delivery, goal));
    }
    requestOver();
    // Read after the answer, timeout or failure: the retry delay counts from the end of the attempt (spec §3).
    const recorded = await this.recorder.record(work, result, { attemptedAt, endedAt: this.clock.now() });
    if (!recorded) {
      this.logger.warn({ msg: 'attempt not recorded: its lease was taken over', deliveryId: work.deliveryId, attempt: work.attempt });
      return;
    }
    deliveryMetrics.attempts.inc({ outcome: result.outcome });
    deliveryMetrics.duration.observe({ outcome: result.outcome }, result.durationMs / 1000);
    if (result.refusedRule) deliveryMetrics.refused.inc({ rule: result.refusedRule });
    this.logger.log({
      msg: 'delivery attempted', deliveryId: delivery.deliveryId, resultId: delivery.resultId, series: work.series,
      attempt: work.attempt, outcome: result.outcome, status: result.status, errorClass: result.errorClass,
      durationMs: result.durationMs, targetHost: result.targetHost, final: recorded.settlement.final,
    });
  }

  private async updateDepth(): Promise<void> {
    const now = Date.now();
    if (now - this.lastDepthAt < DEPTH_EVERY_MS) return;
    this.lastDepthAt = now;
    deliveryMetrics.queueDepth.set(await this.queue.depth());
  }
}
