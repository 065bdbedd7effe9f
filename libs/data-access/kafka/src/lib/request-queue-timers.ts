/**
 * Two timers of kafkajs' per-connection request queue, made to wake the process only when there is work.
 * Each service holds several broker connections, and on these machines every timer wake-up costs on the
 * order of 100–200 µs of CPU (docs/performance.md, third round).
 *
 * 1. kafkajs 2.2.4 keeps every request queue polling itself on a 1 ms timer, forever, even with nothing
 *    queued (tulios/kafkajs#1556, #1704; the fix, PR #1667, was never released): `checkPendingRequests`
 *    always calls `scheduleCheckPendingRequests`, which without a throttle computes a negative delay, and
 *    Node runs it after 1 ms. An idle service woke a few thousand times a second (measured: 35–55 ms of CPU
 *    a second with no work at all), and the same cost was taken from the hot path under load.
 *    The queue only needs that timer for requests that wait in it (throttled, or over the in-flight limit):
 *    `push` schedules it when it queues one, and every answered request checks the queue again. So the timer
 *    is scheduled only while requests are pending; otherwise kafkajs' own code runs unchanged.
 * 2. The request-timeout check runs every `min(requestTimeout, 100 ms)` on every connection, busy or not. A
 *    request times out after 30 s or more (a fetch after its wait plus that); checking once a second is as
 *    good, with a tenth of the wake-ups. The check itself is kafkajs' own, unchanged.
 */
// kafkajs exports no types for its internals.
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

interface InFlightRequest {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

export interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, InFlightRequest>;
  enforceRequestTimeout: boolean;
  requestTimeout: number;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  isConnected(): boolean;
  destroy(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
}

/** How often in-flight requests are checked against their timeout. */
export const REQUEST_TIMEOUT_CHECK_MS = 1_000;

const original = RequestQueue.prototype.scheduleCheckPendingRequests;
if (typeof original !== 'function' || typeof RequestQueue.prototype.scheduleRequestTimeoutCheck !== 'function') {
  throw new Error('kafkajs internals changed: RequestQueue.scheduleCheckPendingRequests or scheduleRequestTimeoutCheck is gone; review request-queue-timers.ts');
}

RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleWhilePending(this: RequestQueueInternals): void {
  if (this.pending.length === 0) return;
  original.call(this);
};

RequestQueue.prototype.scheduleRequestTimeoutCheck = function checkTimeoutsEverySecond(this: RequestQueueInternals): void {
  if (!this.enforceRequestTimeout) return;
  this.destroy();
  this.requestTimeoutIntervalId = setInterval(() => {
    this.inflight.forEach((request) => {
      if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
    });
    if (!this.isConnected()) this.destroy();
  }, Math.min(this.requestTimeout, REQUEST_TIMEOUT_CHECK_MS));
};

/** kafkajs' RequestQueue class, for tests. */
export const KafkaRequestQueue = RequestQueue as unknown as new (options: Record<string, unknown>) => RequestQueueInternals & {
  checkPendingRequests(): void;
};
