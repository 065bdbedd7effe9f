import type { DeliveryAttemptedPayload } from '@owd/events';
import { DeliveryRetryDue } from '@owd/events';
import { receiverPool } from './support/receivers';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher-harness';

const TIMEOUT_MS = 1_500;

/** When the request of an attempt ended, by its start and duration. */
function finishedAt(a: DeliveryAttemptedPayload): number {
  return Date.parse(a.attemptedAt) + a.durationMs;
}

/** A receiver that never answers: each attempt is cut at the (short) attempt timeout. */
describe('dispatcher: retry delays after a timeout', () => {
  let h: DispatcherHarness;
  const { receiver, closeAll } = receiverPool();

  beforeAll(async () => {
    h = await startDispatcher({ ALLOWED_TARGET_CIDRS: '127.0.0.0/8', RETRY_DELAYS_MS: '200,400', ATTEMPT_TIMEOUT_MS: String(TIMEOUT_MS), DISPATCH_POLL_MS: '50' });
  });

  afterAll(async () => {
    await h?.close();
    await closeAll();
  });

  it('counts each retry delay from the end of a timed-out attempt, not from its start', async () => {
    const held = await receiver(() => undefined);
    const goalId = await h.goal({ url: `${held.url}/in` });
    const d = await h.request(goalId);

    const a1 = await h.waitForAttempt(d.deliveryId, 1);
    expect(a1).toMatchObject({ outcome: 'retriable', errorClass: 'timeout', final: false });
    expect(a1.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(Date.parse(a1.endedAt as string)).toBeGreaterThanOrEqual(finishedAt(a1));
    expect(Date.parse(a1.nextAttemptAt as string) - Date.parse(a1.endedAt as string)).toBe(200);

    await h.emit(DeliveryRetryDue, { deliveryId: d.deliveryId, resultId: d.resultId, attempt: 2, dueAt: a1.nextAttemptAt as string });
    const a2 = await h.waitForAttempt(d.deliveryId, 2);
    expect(a2).toMatchObject({ outcome: 'retriable', errorClass: 'timeout', final: false });
    expect(Date.parse(a2.nextAttemptAt as string) - Date.parse(a2.endedAt as string)).toBe(400);
    // The receiver held each request for the whole timeout; the next attempt is due a full delay after that.
    for (const [a, delay] of [[a1, 200], [a2, 400]] as const) {
      expect(Date.parse(a.nextAttemptAt as string) - finishedAt(a)).toBeGreaterThanOrEqual(delay);
    }
    expect(held.requests).toHaveLength(2);
  });

});
