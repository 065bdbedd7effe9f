import { OriginLimiter } from './origin-limiter';
import { originKey } from './origin-key';

describe('OriginLimiter', () => {
  it('reports the free slots of busy origins only', () => {
    const limiter = new OriginLimiter(3);
    limiter.acquire('https://a.example');
    limiter.acquire('https://a.example');
    limiter.acquire('https://b.example');
    expect(limiter.freeSlots()).toEqual({ 'https://a.example': 1, 'https://b.example': 2 });
    limiter.release('https://b.example');
    expect(limiter.freeSlots()).toEqual({ 'https://a.example': 1 });
  });

  it('says whether some origin has every slot taken', () => {
    const limiter = new OriginLimiter(2);
    limiter.acquire('x');
    limiter.acquire('y');
    expect(limiter.anyFull()).toBe(false);
    limiter.acquire('x');
    expect(limiter.anyFull()).toBe(true);
    limiter.release('x');
    expect(limiter.anyFull()).toBe(false);
  });

  it('never reports negative free slots', () => {
    const limiter = new OriginLimiter(1);
    limiter.acquire('x');
    limiter.acquire('x');
    expect(limiter.freeSlots()).toEqual({ x: 0 });
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
