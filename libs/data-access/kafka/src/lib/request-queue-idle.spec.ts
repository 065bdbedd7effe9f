import { KafkaRequestQueue } from './request-queue-idle';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue() {
  return new KafkaRequestQueue({
    maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:1', logger,
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
