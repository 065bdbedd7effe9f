import { answerSignal, FAST_ANSWER_MS, IDLE_RESET_MS, OriginLimiter } from './origin-limiter';
import { originKey } from './origin-key';

describe('OriginLimiter', () => {
  it('gives each origin perOrigin slots for requests in flight', () => {
    const limiter = new OriginLimiter(2);
    limiter.acquire('x');
    expect(limiter.hasSlot('x')).toBe(true);
    limiter.acquire('x');
    expect(limiter.hasSlot('x')).toBe(false);
    expect(limiter.hasSlot('y')).toBe(true);
    limiter.release('x');
    expect(limiter.hasSlot('x')).toBe(true);
  });

  it('lets an origin hold twice its slots in claimed work, and reports the room of origins holding work only', () => {
    const limiter = new OriginLimiter(3);
    expect(limiter.newOriginHoldLimit).toBe(6);
    for (let i = 0; i < 4; i++) limiter.hold('https://a.example');
    limiter.hold('https://b.example');
    expect(limiter.room()).toEqual({ 'https://a.example': 2, 'https://b.example': 5 });
    limiter.unhold('https://b.example');
    expect(limiter.room()).toEqual({ 'https://a.example': 2 });
  });

  it('says whether some origin holds all the work it may', () => {
    const limiter = new OriginLimiter(1);
    limiter.hold('x');
    limiter.hold('y');
    expect(limiter.anyFull()).toBe(false);
    limiter.hold('x');
    expect(limiter.anyFull()).toBe(true);
    limiter.unhold('x');
    expect(limiter.anyFull()).toBe(false);
  });

  it('never reports negative room', () => {
    const limiter = new OriginLimiter(1);
    for (let i = 0; i < 3; i++) limiter.hold('x');
    expect(limiter.room()).toEqual({ x: 0 });
  });
});

describe('OriginLimiter: an origin answering at once gets more slots, up to the cap', () => {
  /** `origin` with all its slots in use; every request answered `signal`, the next one started in its place. */
  function rounds(limiter: OriginLimiter, origin: string, answers: number, signal: 'fast' | 'slow' | 'neutral'): void {
    for (let i = 0; i < answers; i++) {
      limiter.release(origin, signal);
      while (limiter.hasSlot(origin)) limiter.acquire(origin);
    }
  }
  function saturated(floor: number, cap: number, now?: () => number): OriginLimiter {
    const limiter = new OriginLimiter(floor, cap, now);
    limiter.hold('x');
    while (limiter.hasSlot('x')) limiter.acquire('x');
    return limiter;
  }

  /** Floor 2, cap 8: an origin whose fast answers raised its limit, with every request answered and nothing held. */
  function grownThenDone(clock: { now: number }): { limiter: OriginLimiter; grown: number } {
    const limiter = saturated(2, 8, () => clock.now);
    rounds(limiter, 'x', 20, 'fast');
    const grown = limiter.limit('x');
    expect(grown).toBeGreaterThan(2);
    for (let i = 0; i < grown; i++) limiter.release('x');
    limiter.unhold('x');
    return { limiter, grown };
  }

  it('adds one slot per round of fast answers while every slot is in use', () => {
    const limiter = saturated(4, 8);
    rounds(limiter, 'x', 3, 'fast');
    expect(limiter.limit('x')).toBe(4);
    rounds(limiter, 'x', 1, 'fast');
    expect(limiter.limit('x')).toBe(5);
    // What may wait here beyond the limit stays one round of the floor.
    expect(limiter.holdLimit('x')).toBe(9);
    rounds(limiter, 'x', 5, 'fast');
    expect(limiter.limit('x')).toBe(6);
  });

  it('never goes above the cap', () => {
    const limiter = saturated(2, 3);
    rounds(limiter, 'x', 100, 'fast');
    expect(limiter.limit('x')).toBe(3);
  });

  it('does not grow on fast answers while some slots are unused', () => {
    const limiter = new OriginLimiter(4, 8);
    limiter.hold('x');
    for (let i = 0; i < 100; i++) {
      limiter.acquire('x');
      limiter.acquire('x');
      limiter.release('x', 'fast');
      limiter.release('x', 'fast');
    }
    expect(limiter.limit('x')).toBe(4);
  });

  it('halves the limit on a failure or a slow answer, never below the floor', () => {
    const limiter = saturated(2, 16);
    rounds(limiter, 'x', 200, 'fast');
    expect(limiter.limit('x')).toBe(16);
    rounds(limiter, 'x', 1, 'slow');
    expect(limiter.limit('x')).toBe(8);
    rounds(limiter, 'x', 5, 'slow');
    expect(limiter.limit('x')).toBe(2);
  });

  it('leaves the limit where it is on a neutral answer (a 4xx, a request not sent)', () => {
    const limiter = saturated(2, 16);
    rounds(limiter, 'x', 5, 'fast');
    const before = limiter.limit('x');
    rounds(limiter, 'x', 50, 'neutral');
    expect(limiter.limit('x')).toBe(before);
  });

  it('is fixed when the cap is the floor', () => {
    const limiter = saturated(8, 8);
    rounds(limiter, 'x', 100, 'fast');
    expect(limiter.limit('x')).toBe(8);
  });

  it('starts an origin again at the floor once it has held nothing and sent nothing for IDLE_RESET_MS', () => {
    const clock = { now: 0 };
    const { limiter, grown } = grownThenDone(clock);
    // A moment without work (the next claim on its way) keeps the limit.
    clock.now += IDLE_RESET_MS - 1;
    expect(limiter.limit('x')).toBe(grown);
    limiter.hold('x');
    clock.now += IDLE_RESET_MS;
    expect(limiter.limit('x')).toBe(grown);
    limiter.unhold('x');
    clock.now += IDLE_RESET_MS;
    expect(limiter.limit('x')).toBe(2);
  });

  it('lets an origin whose answers raised its limit claim its whole hold limit while it holds nothing, until it is idle long enough', () => {
    const clock = { now: 0 };
    const { limiter, grown } = grownThenDone(clock);
    // Its round answered before the next claim: it may claim what it sends at once and a round of the floor more.
    expect(limiter.room()).toEqual({ x: grown + 2 });
    expect(grown + 2).toBeGreaterThan(limiter.newOriginHoldLimit);
    clock.now += IDLE_RESET_MS;
    // Back at the floor: it claims as a new origin does.
    expect(limiter.room()['x'] ?? limiter.newOriginHoldLimit).toBe(limiter.newOriginHoldLimit);
  });

  it('refuses a cap below the floor', () => {
    expect(() => new OriginLimiter(8, 4)).toThrow('below');
  });
});

describe('answerSignal', () => {
  it('counts a 2xx within FAST_ANSWER_MS for the origin, a failure or a slow answer against, anything else neither', () => {
    expect(answerSignal('delivered', 5)).toBe('fast');
    expect(answerSignal('delivered', FAST_ANSWER_MS + 1)).toBe('slow');
    expect(answerSignal('retriable', 5)).toBe('slow');
    expect(answerSignal('permanent', 5)).toBe('neutral');
    expect(answerSignal('conflict', 5)).toBe('neutral');
    expect(answerSignal('refused', 0)).toBe('neutral');
    expect(answerSignal('permanent', FAST_ANSWER_MS + 1)).toBe('slow');
  });
});

describe('originKey', () => {
  it('is the URL origin in production, so paths of one host share a limit', () => {
    expect(originKey('production', 'https://Hooks.Example:443/a?b=1')).toBe('https://hooks.example');
    expect(originKey('production', 'http://hooks.example:8080/x')).toBe('http://hooks.example:8080');
  });

  it('is the development sink for every test-mode goal', () => {
    expect(originKey('test', 'https://hooks.example/')).toBe('dev-sink');
  });

  it('is empty without a usable URL', () => {
    expect(originKey('production', null)).toBe('');
    expect(originKey('production', 'not a url')).toBe('');
  });
});
