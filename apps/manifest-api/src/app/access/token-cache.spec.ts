import { TokenCache } from './token-cache';

describe('TokenCache', () => {
  let now = 0;
  const clock = { now: () => new Date(now) };
  const live = { tokenId: 't1', workspaceId: 'w1' };

  beforeEach(() => {
    now = 1_000_000;
  });

  it('answers a looked-up token from memory until its time is up, then asks again', () => {
    const cache = new TokenCache<typeof live>(clock, 5_000);
    cache.set('hash-1', live);
    now += 4_999;
    expect(cache.get('hash-1')).toBe(live);
    now += 1;
    expect(cache.get('hash-1')).toBeUndefined();
  });

  it('forgets a revoked token at once, under every hash it was cached by', () => {
    const cache = new TokenCache<typeof live>(clock, 5_000);
    cache.set('hash-1', live);
    cache.set('hash-2', { tokenId: 't2', workspaceId: 'w1' });
    cache.forget('t1');
    expect(cache.get('hash-1')).toBeUndefined();
    expect(cache.get('hash-2')).toEqual({ tokenId: 't2', workspaceId: 'w1' });
  });
});
