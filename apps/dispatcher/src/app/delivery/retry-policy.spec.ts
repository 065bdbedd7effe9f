import { settleAttempt } from './retry-policy';

/** The end of the failed attempt: the delays count from here. */
const at = new Date('2026-11-21T10:00:00.000Z');
const delays = [60_000, 300_000];

describe('settleAttempt', () => {
  it('schedules attempt 2 one delay after the end of a retriable attempt 1', () => {
    expect(settleAttempt('retriable', 1, at, delays)).toEqual({
      final: false, status: 'pending', nextAttemptAt: new Date('2026-11-21T10:01:00.000Z'),
    });
  });

  it('schedules attempt 3 the second delay after the end of attempt 2', () => {
    expect(settleAttempt('retriable', 2, at, delays).nextAttemptAt).toEqual(new Date('2026-11-21T10:05:00.000Z'));
  });

  it('follows the configured delays', () => {
    expect(settleAttempt('retriable', 1, at, [200, 400]).nextAttemptAt).toEqual(new Date('2026-11-21T10:00:00.200Z'));
    expect(settleAttempt('retriable', 2, at, [200, 400]).nextAttemptAt).toEqual(new Date('2026-11-21T10:00:00.400Z'));
  });

  it('fails the delivery after a retriable failure of the third attempt', () => {
    expect(settleAttempt('retriable', 3, at, delays)).toEqual({ final: true, status: 'failed', nextAttemptAt: null });
  });

  it.each([
    ['delivered', 'delivered'],
    ['conflict', 'conflict'],
    ['permanent', 'failed'],
    ['refused', 'failed'],
  ] as const)('ends the series at once on %s (status %s), whatever the attempt', (outcome, status) => {
    for (const attempt of [1, 2, 3]) {
      expect(settleAttempt(outcome, attempt, at, delays)).toEqual({ final: true, status, nextAttemptAt: null });
    }
  });
});
