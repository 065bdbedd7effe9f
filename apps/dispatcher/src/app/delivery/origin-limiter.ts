/**
 * Per origin, two counts: requests in flight (at most `perOrigin`, so one slow receiver cannot take every slot) and the
 * claimed work held here (in flight, waiting here for a slot, or claimed in a transaction that has not ended), at most
 * `holdLimit` = 2 × `perOrigin`. An origin whose slots are all taken so has its next round of work claimed ahead, with
 * the bytes in hand: a freed slot starts the next attempt at once, without a claim of its own.
 */
export class OriginLimiter {
  private readonly sending = new Map<string, number>();
  private readonly held = new Map<string, number>();
  /** Most claimed work one origin holds here. */
  readonly holdLimit: number;

  constructor(private readonly perOrigin: number) {
    this.holdLimit = 2 * perOrigin;
  }

  /** Claimed work of `origin` is held here from its claim until its request is over (or it is given back). */
  hold(origin: string): void {
    increment(this.held, origin, 1);
  }

  unhold(origin: string): void {
    increment(this.held, origin, -1);
  }

  hasSlot(origin: string): boolean {
    return (this.sending.get(origin) ?? 0) < this.perOrigin;
  }

  /** A request to `origin` starts. */
  acquire(origin: string): void {
    increment(this.sending, origin, 1);
  }

  release(origin: string): void {
    increment(this.sending, origin, -1);
  }

  /** Whether some origin holds all the work it may (due work of it may be waiting in the table). */
  anyFull(): boolean {
    for (const n of this.held.values()) if (n >= this.holdLimit) return true;
    return false;
  }

  /** How much more each origin holding work may claim; an origin not listed may claim `holdLimit`. */
  room(): Record<string, number> {
    const free: Record<string, number> = {};
    for (const [origin, n] of this.held) free[origin] = Math.max(0, this.holdLimit - n);
    return free;
  }
}

function increment(counts: Map<string, number>, origin: string, by: number): void {
  const n = (counts.get(origin) ?? 0) + by;
  if (n > 0) counts.set(origin, n);
  else counts.delete(origin);
}
