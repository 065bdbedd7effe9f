import { TokenBucketLimiter } from './token-bucket';

describe('TokenBucketLimiter', () => {
  it('allows the configured number of requests in a burst, then refuses with the seconds until the next one', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(3, () => now);
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 20 });
    now = 20_000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('keeps a separate bucket per token', () => {
    const limiter = new TokenBucketLimiter(1, () => 0);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('never holds more than one minute of requests, however long a token was idle', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(2, () => now);
    limiter.take('a');
    now = 3_600_000;
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, false]);
  });
});
