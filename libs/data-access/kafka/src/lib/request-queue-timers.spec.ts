import { KafkaRequestQueue, REQUEST_TIMEOUT_CHECK_MS } from './request-queue-timers';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue(enforceRequestTimeout = false) {
  return new KafkaRequestQueue({
    maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout, clientId: 'test', broker: 'b:1', logger,
  });
}

function request(correlationId: number, sent: number[]) {
  return { entry: { correlationId, apiName: 'Fetch', apiKey: 1, apiVersion: 11 }, expectResponse: true, sendRequest: () => sent.push(correlationId) };
}

describe('kafkajs request queue without requests waiting', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('schedules no timer when nothing is pending (kafkajs 2.2.4 re-armed a 1 ms timer forever)', () => {
    const q = queue();
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
    expect(jest.getTimerCount()).toBe(0);
    q.destroy();
  });

  it('still sends a request held back by a throttle once the throttle ends', () => {
    const q = queue() as ReturnType<typeof queue> & { push(r: unknown): void; maybeThrottle(ms: number): void };
    const sent: number[] = [];
    q.maybeThrottle(500);
    q.push(request(1, sent));
    expect(sent).toEqual([]);
    expect(q.pending).toHaveLength(1);
    jest.advanceTimersByTime(600);
    expect(sent).toEqual([1]);
    expect(q.pending).toHaveLength(0);
    // Nothing is pending any more: the queue stops checking.
    expect(jest.getTimerCount()).toBe(0);
    q.destroy();
  });
});

describe('kafkajs request timeouts', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('checks in-flight requests once a second (kafkajs: every 100 ms) and still times out a request that never gets an answer', () => {
    const q = queue(true) as ReturnType<typeof queue> & { inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }> };
    q.scheduleRequestTimeoutCheck();
    expect(jest.getTimerCount()).toBe(1);
    const timedOut: number[] = [];
    q.inflight.set(7, { sentAt: Date.now(), requestTimeout: 2_500, timeoutRequest: () => timedOut.push(Date.now()) });
    const started = Date.now();
    jest.advanceTimersByTime(2_000);
    expect(timedOut).toEqual([]);
    jest.advanceTimersByTime(REQUEST_TIMEOUT_CHECK_MS);
    expect(timedOut).toHaveLength(1);
    expect(timedOut[0] - started).toBeLessThanOrEqual(2_500 + REQUEST_TIMEOUT_CHECK_MS);
    q.destroy();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('sets no timer when request timeouts are not enforced', () => {
    const q = queue(false);
    q.scheduleRequestTimeoutCheck();
    expect(jest.getTimerCount()).toBe(0);
  });
});
