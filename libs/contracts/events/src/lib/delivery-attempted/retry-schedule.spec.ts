import { DEFAULT_RETRY_DELAYS_MS, MAX_ATTEMPTS, retryDueAt } from './retry-schedule';

describe('retryDueAt', () => {
  // A receiver that never answered: attempt 1 started at 10:00:00 and was cut by the 30 s timeout.
  const endedAt = new Date('2026-11-21T10:00:30.000Z');

  it('has the spec defaults: three attempts, retries about 1 and 5 minutes after the failure', () => {
    expect(MAX_ATTEMPTS).toBe(3);
    expect(DEFAULT_RETRY_DELAYS_MS).toEqual([60_000, 300_000]);
  });

  it('counts the delay before attempt 2 from the end of the failed attempt 1, not from its start', () => {
    expect(retryDueAt(1, endedAt, DEFAULT_RETRY_DELAYS_MS)).toEqual(new Date('2026-11-21T10:01:30.000Z'));
  });

  it('counts the delay before attempt 3 from the end of the failed attempt 2', () => {
    expect(retryDueAt(2, endedAt, DEFAULT_RETRY_DELAYS_MS)).toEqual(new Date('2026-11-21T10:05:30.000Z'));
  });

  it('has no attempt after the last one', () => {
    expect(retryDueAt(MAX_ATTEMPTS, endedAt, DEFAULT_RETRY_DELAYS_MS)).toBeNull();
  });

  it('refuses a schedule without a delay for the next attempt', () => {
    expect(() => retryDueAt(2, endedAt, [60_000])).toThrow(RangeError);
  });
});
