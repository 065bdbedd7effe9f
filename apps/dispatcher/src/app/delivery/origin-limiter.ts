/** Counts attempts in flight per origin key, so one slow receiver cannot take every slot. */
export class OriginLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perOrigin: number) {}

  acquire(origin: string): void {
    this.inFlight.set(origin, (this.inFlight.get(origin) ?? 0) + 1);
  }

  release(origin: string): void {
    const left = (this.inFlight.get(origin) ?? 0) - 1;
    if (left > 0) this.inFlight.set(origin, left);
    else this.inFlight.delete(origin);
  }

  /** Whether some origin has every slot taken (due work of it may be waiting for one). */
  anyFull(): boolean {
    for (const n of this.inFlight.values()) if (n >= this.perOrigin) return true;
    return false;
  }

  /** Free slots of the origins with attempts in flight; an origin not listed has all `perOrigin` free. */
  freeSlots(): Record<string, number> {
    const free: Record<string, number> = {};
    for (const [origin, n] of this.inFlight) free[origin] = Math.max(0, this.perOrigin - n);
    return free;
  }
}
