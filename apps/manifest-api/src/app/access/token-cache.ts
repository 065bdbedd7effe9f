import type { Clock } from '../util/clock';

/** How long a live token is taken on trust without asking the database (a revocation on another replica waits this long). */
export const TOKEN_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Live tokens recently looked up, by hash: the API's hottest query answered from memory. Only live tokens are
 * kept (an unknown one is asked about every time), and revoking drops a token here at once.
 */
export class TokenCache<T extends { tokenId: string }> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(private readonly clock: Clock, private readonly ttlMs = TOKEN_CACHE_TTL_MS) {}

  get(hash: string): T | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt > this.clock.now().getTime()) return entry.value;
    this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, value: T): void {
    // Map keeps insertion order: the oldest entry goes first when full.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(hash, { value, expiresAt: this.clock.now().getTime() + this.ttlMs });
  }

  forget(tokenId: string): void {
    for (const [hash, entry] of this.entries) if (entry.value.tokenId === tokenId) this.entries.delete(hash);
  }
}
