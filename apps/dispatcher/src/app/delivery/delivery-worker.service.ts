import {
  Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { scopeState, type TransactionScope } from '@owd/database';
import type { AttemptResult } from '@owd/http-delivery';
import { WakeableSleep, withTraceContext } from '@owd/kafka';
import { AttemptRecorder } from './attempt-recorder.service';
import { AttemptSender, NOT_SENT, notSent } from './attempt-sender.service';
import { traceAttempt } from './attempt-span';
import { CLOCK, type Clock } from './clock';
import { deliveryMetrics } from './delivery.metrics';
import { DELIVERY_SETTINGS, type DeliverySettings } from './delivery.settings';
import { answerSignal, OriginLimiter, type AnswerSignal } from './origin-limiter';
import { WorkQueue, type ClaimedWork, type ClaimRequest } from './work-queue.repository';

/** A row claimed this often has taken its workers down with it (or overrun every lease): give up on it. */
const MAX_CLAIMS = 5;
/** How soon an attempt whose goal settings have not arrived yet looks again. */
const GOAL_RECHECK_MS = 1_000;
const DEPTH_EVERY_MS = 5_000;
/** How long shutdown waits for the transactions that claimed work as they inserted it to end. */
const RESERVATIONS_AT_SHUTDOWN_MS = 5_000;
/**
 * Claimed work that has waited here this long for its origin's slot is given back instead of started: its lease
 * (the attempt timeout + 30 s) must outlast the attempt.
 */
const READY_MARGIN_MS = 10_000;

/**
 * Whether a claim took all that some origin was allowed: more of that origin's work may be due. Its answers then wake
 * the loop to claim again; otherwise the next claim would wait for the poll while the origin's backlog waits too.
 */
function tookAllOfAnOrigin(request: ClaimRequest, taken: readonly ClaimedWork[]): boolean {
  const byOrigin = new Map<string, number>();
  for (const w of taken) byOrigin.set(w.originKey, (byOrigin.get(w.originKey) ?? 0) + 1);
  for (const [origin, n] of byOrigin) if (n >= (request.freeByOrigin[origin] ?? request.perOrigin)) return true;
  return false;
}

/** Claimed work waiting here for a slot of its origin, and since when. */
interface Ready {
  work: ClaimedWork;
  since: number;
}

/** An attempt being sent or recorded: whether it still holds a slot of its origin, and when it is over. */
class InFlightAttempt {
  holdsOrigin = true;
  done: Promise<void> = Promise.resolve();

  constructor(readonly work: ClaimedWork) {}
}

/** Work claimed inside a transaction (as it was inserted), by the worker that counted its slots. */
interface Reservation {
  worker: DeliveryWorker;
  work: ClaimedWork[];
}

/** Claimed work starts once the transaction that claimed it has committed; its slots come back if it rolls back. */
const CLAIMED_IN_TRANSACTION: TransactionScope<Reservation[]> = {
  name: 'dispatcher.claimedInTransaction',
  create: () => [],
  afterCommit: (reservations) => reservations.forEach((r) => r.worker.settle(r.work, true)),
  discarded: (reservations) => reservations.forEach((r) => r.worker.settle(r.work, false)),
};

/**
 * Claims due attempts and sends them, at most DISPATCH_CONCURRENCY at once and, per origin, DISPATCH_PER_ORIGIN or,
 * for a receiver answering 2xx quickly, up to DISPATCH_PER_ORIGIN_MAX, so a slow or failing receiver only ever holds its
 * own DISPATCH_PER_ORIGIN slots. An origin whose slots are all taken has up to as much again claimed ahead and
 * waiting here, bytes in hand (OriginLimiter): a freed slot starts the next one at once, and
 * the claims that refill it take half a round at a time. Nothing here runs inside a Kafka handler.
 * SIGTERM: stop claiming, give back the work waiting here, let the attempts in flight finish (each is bounded by the
 * attempt timeout) and record them; MessagingService then drains the consumers and publishes the outbox.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly limiter: OriginLimiter;
  private readonly inFlight = new Set<InFlightAttempt>();
  private running = false;
  private loop?: Promise<void>;
  private readonly idle = new WakeableSleep();
  private lastDepthAt = 0;
  /**
   * The last claim may have left due work behind: it took as many as it could, all some origin may hold, or an
   * origin's slots are all taken.
   * Only then does a finished attempt wake the loop to claim again; new work wakes it by itself (intake, poll).
   */
  private mayHaveMore = false;
  /** Claims take their slots one at a time (the loop's and those made as work is inserted), so none hands out a slot twice. */
  private claiming: Promise<unknown> = Promise.resolve();
  /** Work claimed in transactions that have not ended yet → when; it holds its slots until it starts or is given back. */
  private readonly reserved = new Map<ClaimedWork[], number>();
  private reservedCount = 0;
  /** Claimed work waiting for a slot of its origin, oldest first. */
  private readonly ready = new Map<string, Ready[]>();
  private readyCount = 0;

  constructor(
    @Inject(DELIVERY_SETTINGS) private readonly settings: DeliverySettings,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly queue: WorkQueue,
    private readonly sender: AttemptSender,
    private readonly recorder: AttemptRecorder,
  ) {
    this.limiter = new OriginLimiter(settings.perOrigin, settings.perOriginMax);
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
    // Work claimed in a consumer's transaction starts when it commits (the consumers still run): wait for those too.
    // Such a transaction ends in milliseconds; one that has not after a few seconds leaves its rows to their lease.
    const deadline = Date.now() + RESERVATIONS_AT_SHUTDOWN_MS;
    while (this.reservedCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    // What waits here for a slot goes back to the table at once, for another replica to send.
    const waiting = [...this.ready.values()].flat().map((r) => r.work);
    this.ready.clear();
    this.readyCount = 0;
    deliveryMetrics.waitingForOrigin.set(0);
    await this.giveBack(waiting);
    await Promise.allSettled([...this.inFlight].map((attempt) => attempt.done));
  }

  /** Attempts being sent or recorded right now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Attempts claimed in transactions that have not ended yet (they hold their slots). */
  get reservedSlots(): number {
    return this.reservedCount;
  }

  /** Claimed attempts waiting here for a slot of their origin. */
  get readySlots(): number {
    return this.readyCount;
  }

  kick = (): void => this.idle.wake();

  /**
   * Runs `insert` (which makes attempts due in `manager`'s transaction and may claim some of them at once, within the
   * request it is given) as a claim: the slots of what it claimed are counted before anything else claims. The
   * claimed work starts once the transaction commits and gives its slots back if it rolls back; the rows themselves
   * are the transaction's, so a rolled-back claim leaves nothing behind. `insert` runs under the claim lock, so it
   * must not wait for a row lock another claimer's transaction holds: it inserts work for rows its own transaction
   * has just created (new deliveries), and the worker's claim skips locked rows and locks no delivery.
   */
  async claimAsInserted<T extends { claimed: ClaimedWork[] }>(manager: EntityManager, insert: (request: ClaimRequest) => Promise<T>): Promise<T> {
    const reservations = scopeState(manager, CLAIMED_IN_TRANSACTION);
    if (!reservations) throw new Error('claimAsInserted runs inside the transaction that inserts the work');
    return this.exclusively(async () => {
      const result = await insert(this.claimRequest());
      if (result.claimed.length > 0) {
        for (const w of result.claimed) this.limiter.hold(w.originKey);
        this.reserved.set(result.claimed, Date.now());
        this.reservedCount += result.claimed.length;
        reservations.push({ worker: this, work: result.claimed });
      }
      return result;
    });
  }

  /**
   * The transaction that claimed `work` has ended: committed, it starts; rolled back, its slots come back. Work held
   * longer than its lease (a transaction whose end was never reported: the connection broke at the commit) is given
   * back by the loop, and a late report of it then changes nothing (the row is anyone's after its lease).
   */
  settle(work: ClaimedWork[], committed: boolean): void {
    if (!this.reserved.delete(work)) return;
    this.reservedCount -= work.length;
    if (committed) {
      for (const w of work) this.dispatch(w);
      return;
    }
    for (const w of work) this.limiter.unhold(w.originKey);
    this.kick();
  }

  private expireReservations(): void {
    const expired = [...this.reserved].filter(([, at]) => Date.now() - at > this.settings.leaseMs);
    for (const [work] of expired) {
      this.logger.warn({ msg: 'claimed work whose transaction never reported its end: its slots are given back', deliveryIds: work.map((w) => w.deliveryId) });
      this.settle(work, false);
    }
  }

  private claimRequest(): ClaimRequest {
    return {
      limit: this.running ? this.settings.concurrency - this.inFlight.size - this.reservedCount - this.readyCount : 0,
      freeByOrigin: this.limiter.room(),
      perOrigin: this.limiter.newOriginHoldLimit,
      leaseMs: this.settings.leaseMs,
      workerId: this.settings.workerId,
    };
  }

  private exclusively<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.claiming.then(fn, fn);
    this.claiming = run.catch(() => undefined);
    return run;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.expireReservations();
      let free = 0;
      let claimed = 0;
      let tookAnOriginsAll = false;
      try {
        const work = await this.exclusively(async () => {
          const request = this.claimRequest();
          free = request.limit;
          if (free <= 0) return [];
          const taken = await this.queue.claim(request);
          for (const w of taken) this.limiter.hold(w.originKey);
          tookAnOriginsAll = tookAllOfAnOrigin(request, taken);
          return taken;
        });
        for (const item of work) this.dispatch(item);
        claimed = work.length;
        if (free > 0) {
          this.mayHaveMore = claimed >= free || tookAnOriginsAll || this.limiter.anyFull();
          await this.updateDepth();
        }
      } catch (err) {
        this.logger.warn({ msg: 'claiming due attempts failed; trying again', err });
        await this.idle.sleep(1_000);
        continue;
      }
      // More may be due right away only if the claim took all it asked for; otherwise wait for the poll, new work or
      // room at an origin.
      if (claimed < free || this.inFlight.size + this.reservedCount + this.readyCount >= this.settings.concurrency) {
        await this.idle.sleep(this.settings.pollMs);
      }
    }
  }

  /** Claimed work (held against its origin) starts if its origin has a free slot, and waits here for one otherwise. */
  private dispatch(work: ClaimedWork): void {
    if (this.limiter.hasSlot(work.originKey)) return this.start(work);
    if (!this.running) return void this.giveBack([work]);
    const waiting = this.ready.get(work.originKey) ?? [];
    waiting.push({ work, since: Date.now() });
    this.ready.set(work.originKey, waiting);
    this.readyCount++;
    deliveryMetrics.waitingForOrigin.set(this.readyCount);
  }

  /** The next claimed work of `origin` to start; work that waited too long for its lease is given back instead. */
  private nextReady(origin: string): ClaimedWork | undefined {
    const waiting = this.ready.get(origin);
    const staleBefore = Date.now() - Math.max(0, this.settings.leaseMs - this.settings.attemptTimeoutMs - READY_MARGIN_MS);
    const stale: ClaimedWork[] = [];
    let next: Ready | undefined;
    while (waiting && waiting.length > 0 && next === undefined) {
      const head = waiting.shift() as Ready;
      this.readyCount--;
      if (head.since < staleBefore || !this.running) stale.push(head.work);
      else next = head;
    }
    deliveryMetrics.waitingForOrigin.set(this.readyCount);
    if (waiting?.length === 0) this.ready.delete(origin);
    if (stale.length > 0) void this.giveBack(stale);
    return next?.work;
  }

  /** Claimed work that will not be sent here goes back to the table, due as it was, for any worker to claim. */
  private async giveBack(work: ClaimedWork[]): Promise<void> {
    if (work.length === 0) return;
    for (const w of work) this.limiter.unhold(w.originKey);
    try {
      await this.queue.release(work);
    } catch (err) {
      // Their leases run out instead, and the work is claimed again then.
      this.logger.warn({ msg: 'claimed work could not be given back; it is claimed again once its lease has expired', count: work.length, err });
    }
    this.kick();
  }

  /** Sends claimed work whose origin has a free slot (its hold is counted by the claim). */
  private start(work: ClaimedWork): void {
    this.limiter.acquire(work.originKey);
    deliveryMetrics.inFlight.inc();
    const attempt = new InFlightAttempt(work);
    this.inFlight.add(attempt);
    // In the trace of the event that made the attempt due (stored with the work row).
    attempt.done = withTraceContext(work.traceContext, this.carryOut, this, attempt);
  }

  /**
   * Makes the attempt and, however it ends, gives its slots back. Methods and a small object per attempt, not closures
   * made per attempt: V8 throws the optimized code of such closures away at every full collection (columnsOf).
   */
  private async carryOut(attempt: InFlightAttempt): Promise<void> {
    try {
      await this.attempt(attempt);
    } catch (err) {
      // The claim stays until its lease expires; then the attempt is made again with the same bytes.
      this.logger.error({ msg: 'attempt could not be completed; it is retried after its lease', deliveryId: attempt.work.deliveryId, err });
    } finally {
      this.inFlight.delete(attempt);
      deliveryMetrics.inFlight.dec();
      this.slotFreed(attempt);
    }
  }

  /**
   * The origin's slot protects the receiver: it is given back as soon as the request is over (with what the answer
   * says), before the attempt is recorded, and the next work waiting here for it starts; the process-wide slot is
   * given back once it is recorded. How the request ended moves the origin's limit, so a fast answer may start more
   * than one waiting attempt. The loop claims more once half of what may wait here for the origin has started.
   */
  private slotFreed(attempt: InFlightAttempt, signal: AnswerSignal = 'neutral'): void {
    const origin = attempt.work.originKey;
    if (attempt.holdsOrigin) {
      attempt.holdsOrigin = false;
      this.limiter.release(origin, signal);
      this.limiter.unhold(origin);
      let next: ClaimedWork | undefined;
      while (this.limiter.hasSlot(origin) && (next = this.nextReady(origin))) this.start(next);
    }
    if (this.mayHaveMore && (this.ready.get(origin)?.length ?? 0) <= this.limiter.claimAgainAt) this.kick();
  }

  /** Makes the attempt; its origin's slot is freed once nothing more goes to the receiver, with what its answer says. */
  private async attempt(attempt: InFlightAttempt): Promise<void> {
    const { work } = attempt;
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
      result = await traceAttempt(delivery, work, this.sender.send, this.sender, delivery, goal);
    }
    this.slotFreed(attempt, answerSignal(result.outcome, result.durationMs));
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
