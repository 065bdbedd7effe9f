import { OriginLimiter } from './origin-limiter';
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
    expect(limiter.holdLimit).toBe(6);
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
