import { Test } from '@nestjs/testing';
import { Clock } from './clock.provider';
import { nextPollDelay, RetryPoller } from './retry.poller';
import { TimerStore, type TimerStats } from './timer.store';
import { timerMetrics } from './timer.metrics';
import { TIMER_SETTINGS, type TimerSettings } from './timer.settings';

const T = new Date('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T.getTime() + ms);

class FixedClock extends Clock {
  constructor(public current: Date) {
    super();
  }
  now(): Date {
    return this.current;
  }
}

/** Stands in for the table: records what the poller asked and answers what the test set. */
class FakeStore {
  firedAt: Date[] = [];
  purgedBefore: Date[] = [];
  fireResult: () => Promise<number> = async () => 0;
  statsResult: TimerStats = { pending: 0, earliestDueAt: null };
  fireDue = async (now: Date, _limit: number) => {
    this.firedAt.push(now);
    return this.fireResult();
  };
  stats = async () => this.statsResult;
  purge = async (before: Date) => {
    this.purgedBefore.push(before);
  };
}

async function setup(settings: Partial<TimerSettings> = {}) {
  const store = new FakeStore();
  const clock = new FixedClock(T);
  const moduleRef = await Test.createTestingModule({
    providers: [
      RetryPoller,
      { provide: TimerStore, useValue: store },
      { provide: Clock, useValue: clock },
      { provide: TIMER_SETTINGS, useValue: { pollMs: 1000, jitterMs: 0, batchSize: 10, retainMs: 3_600_000, ...settings } },
    ],
  }).compile();
  return { poller: moduleRef.get(RetryPoller), store, clock };
}

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('RetryPoller', () => {
  it('fires the timers due at the clock\'s now and waits until the next due time when it is sooner than a poll', async () => {
    const { poller, store } = await setup();
    store.statsResult = { pending: 1, earliestDueAt: at(250) };
    expect(await poller.round()).toBe(250);
    expect(store.firedAt).toEqual([T]);
  });

  it('waits one poll interval when nothing is pending or the next timer is later', async () => {
    const { poller, store } = await setup();
    expect(await poller.round()).toBe(1000);
    store.statsResult = { pending: 1, earliestDueAt: at(60_000) };
    expect(await poller.round()).toBe(1000);
  });

  it('starts the next round at once after a full batch, since more may be due', async () => {
    const { poller, store } = await setup({ batchSize: 10 });
    store.fireResult = async () => 10;
    expect(await poller.round()).toBe(0);
  });

  it('reports pending timers and how late the oldest due one is, by the injected clock', async () => {
    const { poller, store } = await setup();
    store.statsResult = { pending: 3, earliestDueAt: at(-5000) };
    // The overdue timer is held by another replica: look again soon, without spinning.
    expect(await poller.round()).toBe(50);
    expect((await timerMetrics.pending.get()).values[0].value).toBe(3);
    expect((await timerMetrics.oldestDueSeconds.get()).values[0].value).toBe(5);
  });

  it('purges settled timers older than the retention, measured by the injected clock', async () => {
    const { poller, store } = await setup({ retainMs: 3_600_000 });
    await poller.round();
    expect(store.purgedBefore).toEqual([at(-3_600_000)]);
  });

  it('wakes for a timer stored while it sleeps instead of waiting for the next poll', async () => {
    const { poller, store } = await setup({ pollMs: 30_000 });
    poller.onApplicationBootstrap();
    await until(() => store.firedAt.length === 1);
    poller.wakeBy(at(0));
    // Any bound well under the 30 s poll tells a wake-up from a poll; a loaded machine can delay a timer by seconds.
    await until(() => store.firedAt.length === 2, 10_000);
    await poller.beforeApplicationShutdown();
  });

  it('on shutdown finishes the round in flight and starts no other', async () => {
    const { poller, store } = await setup({ pollMs: 10 });
    let release: (n: number) => void = () => undefined;
    store.fireResult = () => new Promise<number>((resolve) => (release = resolve));
    poller.onApplicationBootstrap();
    await until(() => store.firedAt.length === 1);
    let stopped = false;
    const stopping = poller.beforeApplicationShutdown().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    release(1);
    await stopping;
    await new Promise((r) => setTimeout(r, 30));
    expect(store.firedAt).toHaveLength(1);
  });
});

describe('nextPollDelay', () => {
  it('never waits longer than the poll interval nor less than a short floor for an overdue timer', () => {
    expect(nextPollDelay(T, null, 1000)).toBe(1000);
    expect(nextPollDelay(T, at(1), 1000)).toBe(1);
    expect(nextPollDelay(T, at(0), 1000)).toBe(50);
    expect(nextPollDelay(T, at(-1), 20)).toBe(20);
  });
});
