/** An answer this quick, a 2xx, from an origin using all its slots, lets it have more (see OriginLimiter). */
export const FAST_ANSWER_MS = 1_000;

/** An origin with nothing in flight or held this long starts again at the floor. */
export const IDLE_RESET_MS = 5_000;

/** How one request's end bears on its origin's limit. */
export type AnswerSignal = 'fast' | 'slow' | 'neutral';

/**
 * Per origin, two counts: requests in flight (at most the origin's limit, so one slow receiver cannot take every
 * slot) and the claimed work held here (in flight, waiting here for a slot, or claimed in a transaction that has not
 * ended), at most the limit and `floor` more. An origin whose slots are all taken so has its next round of work
 * claimed ahead, with the bytes in hand: a freed slot starts the next attempt at once, without a claim of its own.
 * The round claimed ahead stays `floor` however far the limit grows, so an origin at the cap that stops answering
 * holds `cap` + `floor` of the process's work, not twice the cap.
 *
 * The limit starts at `floor` (DISPATCH_PER_ORIGIN) and moves as TCP's congestion window does, between `floor` and
 * `cap` (DISPATCH_PER_ORIGIN_MAX): each fast 2xx answered while all the origin's slots were in use adds 1/limit (one
 * slot per round of answers), and a failure or a slow answer halves it. A receiver that fails or answers slowly so
 * never holds more than `floor` slots, while one that answers at once is not held to the rate `floor` requests can
 * reach through this process's own event-loop delay. An origin with nothing held or in flight for IDLE_RESET_MS starts
 * again at `floor` (a moment without work, while the next claim is on its way, keeps what its answers earned).
 */
export class OriginLimiter {
  private readonly sending = new Map<string, number>();
  private readonly held = new Map<string, number>();
  /** Origins whose limit is above `floor`. */
  private readonly limits = new Map<string, number>();
  /** Origins above `floor` with nothing held or in flight, and since when. */
  private readonly idleSince = new Map<string, number>();

  constructor(private readonly floor: number, private readonly cap: number = floor, private readonly now: () => number = Date.now) {
    if (cap < floor) throw new Error(`the most slots per origin (${cap}) is below the least (${floor})`);
  }

  /** Requests `origin` may have in flight now. */
  limit(origin: string): number {
    return Math.floor(this.current(origin));
  }

  /** Most claimed work `origin` may hold here now. */
  holdLimit(origin: string): number {
    return this.limit(origin) + this.floor;
  }

  /** Claimed work waiting here for a slot, at or below which more of an origin's work may be claimed (half a round). */
  get claimAgainAt(): number {
    return this.floor / 2;
  }

  /** Most claimed work an origin holding nothing here may claim. */
  get newOriginHoldLimit(): number {
    return 2 * this.floor;
  }

  /** Claimed work of `origin` is held here from its claim until its request is over (or it is given back). */
  hold(origin: string): void {
    // An origin idle past IDLE_RESET_MS starts again at the floor before it is busy again.
    this.current(origin);
    this.idleSince.delete(origin);
    increment(this.held, origin, 1);
  }

  unhold(origin: string): void {
    increment(this.held, origin, -1);
    this.noteIfIdle(origin);
  }

  hasSlot(origin: string): boolean {
    return (this.sending.get(origin) ?? 0) < this.limit(origin);
  }

  /** A request to `origin` starts. */
  acquire(origin: string): void {
    increment(this.sending, origin, 1);
  }

  /** A request to `origin` is over; `signal` (read before its slot is released) moves the origin's limit. */
  release(origin: string, signal: AnswerSignal = 'neutral'): void {
    const current = this.current(origin);
    if (signal === 'slow') {
      this.setLimit(origin, Math.max(this.floor, current / 2));
    } else if (signal === 'fast' && (this.sending.get(origin) ?? 0) >= Math.floor(current)) {
      this.setLimit(origin, Math.min(this.cap, current + 1 / Math.floor(current)));
    }
    increment(this.sending, origin, -1);
    this.noteIfIdle(origin);
  }

  /** Whether some origin holds all the work it may (due work of it may be waiting in the table). */
  anyFull(): boolean {
    for (const [origin, n] of this.held) if (n >= this.holdLimit(origin)) return true;
    return false;
  }

  /**
   * How much more each origin holding work, or whose answers have raised its limit, may claim; an origin not listed
   * may claim `newOriginHoldLimit`. An origin above the floor that holds nothing right now (its last round answered
   * before the next claim) may claim its whole hold limit at once, not a new origin's two floors: otherwise it could
   * take no more than it sends at once, and nothing would be left waiting to claim again for.
   */
  room(): Record<string, number> {
    const free: Record<string, number> = {};
    for (const [origin, n] of this.held) free[origin] = Math.max(0, this.holdLimit(origin) - n);
    for (const origin of this.limits.keys()) if (!this.held.has(origin)) free[origin] = this.holdLimit(origin);
    return free;
  }

  /** The origin's limit, back at `floor` once it has been idle for IDLE_RESET_MS. */
  private current(origin: string): number {
    const since = this.idleSince.get(origin);
    if (since !== undefined && this.now() - since >= IDLE_RESET_MS) {
      this.idleSince.delete(origin);
      this.limits.delete(origin);
    }
    return this.limits.get(origin) ?? this.floor;
  }

  private setLimit(origin: string, limit: number): void {
    if (limit > this.floor) this.limits.set(origin, limit);
    else this.limits.delete(origin);
  }

  private noteIfIdle(origin: string): void {
    if (this.held.has(origin) || this.sending.has(origin) || !this.limits.has(origin)) return;
    // Origins idle long enough are forgotten here too, so ones never seen again do not stay in the maps.
    for (const other of this.idleSince.keys()) this.current(other);
    this.idleSince.set(origin, this.now());
  }
}

/** How an attempt's end bears on its origin's limit: a quick 2xx counts for it, a failure or a slow answer against. */
export function answerSignal(outcome: string, durationMs: number): AnswerSignal {
  if (outcome === 'retriable' || durationMs > FAST_ANSWER_MS) return 'slow';
  return outcome === 'delivered' ? 'fast' : 'neutral';
}

function increment(counts: Map<string, number>, origin: string, by: number): void {
  const n = (counts.get(origin) ?? 0) + by;
  if (n > 0) counts.set(origin, n);
  else counts.delete(origin);
}
