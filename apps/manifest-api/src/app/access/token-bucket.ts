export interface TakeResult {
  allowed: boolean;
  /** Whole seconds until one request is allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * One token bucket per key (API token), refilled continuously at `perMinute / 60` per second, holding
 * at most `perMinute`. In memory, so the limit holds per replica: N replicas allow up to N × the limit.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(private readonly perMinute: number, private readonly now: () => number = Date.now) {
    this.perMs = perMinute / 60_000;
  }

  take(key: string): TakeResult {
    const now = this.now();
    const bucket = this.refill(this.buckets.get(key), now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(key, bucket);
      this.prune(now);
      return { allowed: true, retryAfterSeconds: 0 };
    }
    this.buckets.set(key, bucket);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
  }

  private refill(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.perMinute, updatedAt: now };
    const tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updatedAt) * this.perMs);
    return { tokens, updatedAt: now };
  }

  /** Full buckets carry no information; dropping them keeps memory bounded by the active tokens. */
  private prune(now: number): void {
    if (this.buckets.size < 10_000) return;
    for (const [key, bucket] of this.buckets) {
      if (this.refill(bucket, now).tokens >= this.perMinute) this.buckets.delete(key);
    }
  }
}
