import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { ResolveAll } from '../lib/check-target';

/**
 * In-memory DNS for specs (never real DNS). Each name has a sequence of answers: query n gets
 * answer n, the last one repeating, which is how a rebinding attacker's server behaves.
 */
export function fakeDns(zone: Readonly<Record<string, ReadonlyArray<readonly string[]>>>) {
  const queries = new Map<string, number>();

  const answer = (hostname: string): LookupAddress[] => {
    const sequence = zone[hostname];
    if (!sequence) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const n = queries.get(hostname) ?? 0;
    queries.set(hostname, n + 1);
    const addresses = sequence[Math.min(n, sequence.length - 1)];
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };

  const resolveAll: ResolveAll = async (hostname) => answer(hostname);

  const lookup: LookupFunction = (hostname, options, callback) => {
    let answers: LookupAddress[];
    try {
      answers = answer(hostname);
    } catch (error: unknown) {
      process.nextTick(() => callback(error as NodeJS.ErrnoException, ''));
      return;
    }
    process.nextTick(() =>
      options.all ? callback(null, answers) : callback(null, answers[0]?.address ?? '', answers[0]?.family),
    );
  };

  return { resolveAll, lookup, queryCount: (hostname: string): number => queries.get(hostname) ?? 0 };
}
