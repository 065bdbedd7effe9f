/** Wall-clock time, injected so tests decide when it moves (the rate limiter's buckets refill with it). */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };
