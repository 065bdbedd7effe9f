import type { DeliveryAttemptedPayload } from '@owd/events';
import { onDeliveryAttempted, onStatusChanged, type ProjectedState } from './state-transitions';

const D1 = '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11';
const received: ProjectedState = { state: 'received', stateRevision: 1, stateReason: null, missingFields: [], deliveryId: null, nextAttemptAt: null, lastError: null };
const status = (revision: number, s: 'queued' | 'needs_approval') => ({ resultId: 'res_1', goalId: 'g', revision, status: s, reason: 'why', missingFields: s === 'needs_approval' ? ['desk'] : [] });
const attempt = (over: Partial<DeliveryAttemptedPayload>): DeliveryAttemptedPayload => ({
  deliveryId: D1, resultId: 'res_1', goalId: 'g', workspaceId: null, revision: 1, series: 1, attempt: 1, targetHost: 'h', status: 503, durationMs: 5, outcome: 'retriable',
  errorClass: null, errorMessage: null, attemptedAt: '2026-01-01T00:00:00.000Z', nextAttemptAt: '2026-01-01T00:01:00.000Z', conflictRevision: null, final: false, ...over,
});

describe('result state transitions', () => {
  it('takes readiness from result.status-changed, with the missing fields', () => {
    expect(onStatusChanged(received, status(1, 'needs_approval'))).toMatchObject({ state: 'needs_approval', missingFields: ['desk'] });
  });

  it('ignores news about an older revision', () => {
    const at2 = { ...received, stateRevision: 2 };
    expect(onStatusChanged(at2, status(1, 'queued'))).toBeNull();
    expect(onDeliveryAttempted(at2, attempt({ outcome: 'delivered', final: true }))).toBeNull();
  });

  it('does not let a late readiness event undo delivery news of the same revision', () => {
    const delivered = onDeliveryAttempted(received, attempt({ outcome: 'delivered', status: 200, final: true })) as ProjectedState;
    expect(delivered.state).toBe('delivered');
    expect(onStatusChanged(delivered, status(1, 'queued'))).toBeNull();
  });

  it('walks retriable attempts to failed with the last error', () => {
    const retrying = onDeliveryAttempted(received, attempt({})) as ProjectedState;
    expect(retrying).toMatchObject({ state: 'retry_scheduled', nextAttemptAt: new Date('2026-01-01T00:01:00.000Z'), lastError: { status: 503 } });
    const failed = onDeliveryAttempted(retrying, attempt({ attempt: 3, status: null, errorClass: 'timeout', final: true, nextAttemptAt: null })) as ProjectedState;
    expect(failed).toMatchObject({ state: 'failed', lastError: { errorClass: 'timeout' }, nextAttemptAt: null });
    expect(failed.stateReason).toMatch(/no attempts left/);
  });

  it('marks a 4xx as a permanent failure and a 409 with a revision as a re-send', () => {
    expect(onDeliveryAttempted(received, attempt({ status: 401, outcome: 'permanent', final: true }))?.state).toBe('failed');
    expect(onDeliveryAttempted(received, attempt({ status: 409, outcome: 'conflict', conflictRevision: 4, final: true }))).toMatchObject({ state: 'delivering', stateReason: expect.stringMatching(/revision 4/) });
  });
});
