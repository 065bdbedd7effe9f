import { MAX_ATTEMPTS, type AttemptOutcome, type DeliveryAttemptedPayload } from '@owd/events';
import { decideTimer } from './timer-decision';

const attemptedAt = '2026-11-21T10:00:00.000Z';
const noJitter = { jitterMs: 0, random: () => 0.999 };

function attempted(overrides: Partial<DeliveryAttemptedPayload> = {}): DeliveryAttemptedPayload {
  return {
    deliveryId: '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11',
    resultId: 'res_1',
    goalId: '0c8a3f1e-1d2b-4c3d-8e4f-5a6b7c8d9e0f',
    workspaceId: null,
    revision: 1,
    series: 1,
    attempt: 1,
    targetHost: 'receiver.example',
    status: 503,
    durationMs: 120,
    outcome: 'retriable',
    errorClass: null,
    errorMessage: null,
    attemptedAt,
    nextAttemptAt: '2026-11-21T10:01:00.000Z',
    conflictRevision: null,
    final: false,
    ...overrides,
  };
}

describe('decideTimer', () => {
  it('schedules attempt 2 at nextAttemptAt after a retriable first attempt', () => {
    expect(decideTimer(attempted(), noJitter)).toEqual({
      action: 'schedule',
      timer: {
        deliveryId: '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11',
        resultId: 'res_1',
        attempt: 2,
        afterAttemptedAt: new Date(attemptedAt),
        dueAt: new Date('2026-11-21T10:01:00.000Z'),
      },
    });
  });

  it('schedules attempt 3 after a retriable second attempt', () => {
    const decision = decideTimer(attempted({ attempt: 2, nextAttemptAt: '2026-11-21T10:06:00.000Z' }), noJitter);
    expect(decision).toMatchObject({ action: 'schedule', timer: { attempt: 3, dueAt: new Date('2026-11-21T10:06:00.000Z') } });
  });

  it.each<[AttemptOutcome, number]>([
    ['delivered', 1], ['permanent', 1], ['conflict', 2], ['refused', 1], ['retriable', 3],
  ])('stores no timer after a final %s attempt %i', (outcome, attempt) => {
    const decision = decideTimer(attempted({ outcome, attempt, final: true, nextAttemptAt: null }), noJitter);
    expect(decision).toEqual({ action: 'stop', reason: 'final' });
  });

  it('never schedules a fourth attempt, even when the third is wrongly marked non-final', () => {
    const decision = decideTimer(attempted({ attempt: MAX_ATTEMPTS, nextAttemptAt: '2026-11-21T10:06:00.000Z' }), noJitter);
    expect(decision).toEqual({ action: 'stop', reason: 'last-attempt' });
  });

  it('schedules nothing for a non-final attempt without nextAttemptAt', () => {
    expect(decideTimer(attempted({ nextAttemptAt: null }), noJitter)).toEqual({ action: 'stop', reason: 'no-next-attempt' });
  });

  it('adds jitter only after nextAttemptAt and at most RETRY_JITTER_MS', () => {
    const due = (random: number) => {
      const d = decideTimer(attempted(), { jitterMs: 5000, random: () => random });
      return d.action === 'schedule' ? d.timer.dueAt.toISOString() : undefined;
    };
    expect(due(0)).toBe('2026-11-21T10:01:00.000Z');
    expect(due(0.5)).toBe('2026-11-21T10:01:02.500Z');
    expect(due(0.99999)).toBe('2026-11-21T10:01:05.000Z');
  });

  it('keys the timer by the attempt that scheduled it, so a manual-retry series gets its own timer', () => {
    const first = decideTimer(attempted(), noJitter);
    const manual = decideTimer(attempted({ attemptedAt: '2026-11-21T12:00:00.000Z', nextAttemptAt: '2026-11-21T12:01:00.000Z' }), noJitter);
    expect(first.action === 'schedule' && manual.action === 'schedule').toBe(true);
    if (first.action === 'schedule' && manual.action === 'schedule') {
      expect(manual.timer.attempt).toBe(first.timer.attempt);
      expect(manual.timer.afterAttemptedAt).not.toEqual(first.timer.afterAttemptedAt);
    }
  });

  it('keeps a nextAttemptAt already in the past, so the timer fires at once', () => {
    const decision = decideTimer(attempted({ nextAttemptAt: '2026-11-21T09:00:00.000Z' }), noJitter);
    expect(decision).toMatchObject({ action: 'schedule', timer: { dueAt: new Date('2026-11-21T09:00:00.000Z') } });
  });
});
