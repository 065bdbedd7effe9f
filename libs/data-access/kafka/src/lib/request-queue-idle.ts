/**
 * kafkajs 2.2.4 keeps every broker connection's request queue polling itself on a 1 ms timer, forever, even
 * with nothing queued (tulios/kafkajs#1556, #1704; the fix, PR #1667, was never released): its
 * `checkPendingRequests` always calls `scheduleCheckPendingRequests`, which with no throttle computes a
 * negative delay, and Node runs it after 1 ms. Each service holds several connections, so an idle service
 * woke a few thousand times a second: 35–55 ms of CPU per second with no work at all, measured, and the
 * same cost taken from the hot path under load.
 *
 * The queue only ever needs that timer for requests that wait in it (throttled, or over the in-flight
 * limit): `push` schedules it when it queues one, and every answered request checks the queue again. So the
 * timer is scheduled only while requests are pending; otherwise kafkajs' own code runs unchanged.
 */
// kafkajs exports no types for its internals.
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

export interface RequestQueueInternals {
  pending: unknown[];
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  scheduleCheckPendingRequests(): void;
}

const original = RequestQueue.prototype.scheduleCheckPendingRequests;
if (typeof original !== 'function') {
  throw new Error('kafkajs internals changed: RequestQueue.scheduleCheckPendingRequests is gone; review request-queue-idle.ts');
}

RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleWhilePending(this: RequestQueueInternals): void {
  if (this.pending.length === 0) return;
  original.call(this);
};

/** kafkajs' RequestQueue class, for tests. */
export const KafkaRequestQueue = RequestQueue as unknown as new (options: Record<string, unknown>) => RequestQueueInternals & {
  checkPendingRequests(): void;
  destroy(): void;
};
