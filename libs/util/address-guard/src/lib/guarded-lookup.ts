import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress } from './classify';
import { AddressRefusedError } from './errors';
import { classifyHostname, normalizeHostname } from './hostname';
import { EMPTY_POLICY, type AddressPolicy } from './policy';

/**
 * A drop-in for `net.connect({ lookup })`: the addresses checked are the addresses the socket dials,
 * which is what defeats DNS rebinding (a name that was public at save time and is 127.0.0.1 now).
 */
export function createGuardedLookup(
  policy: AddressPolicy = EMPTY_POLICY,
  baseLookup: LookupFunction = dnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    const fail = (error: NodeJS.ErrnoException): void => callback(error, options.all ? [] : '');
    const name = normalizeHostname(hostname);

    const byName = classifyHostname(name);
    if (byName) return fail(new AddressRefusedError({ ...byName, hostname: name }));

    // Ask for every address even when the caller wants one, so a mixed public/private answer is refused.
    baseLookup(hostname, { ...options, all: true }, (error, result, family) => {
      if (error) return fail(error);
      const answers = toAnswers(result, family);
      if (answers.length === 0) return fail(Object.assign(new Error(`${name} has no IP addresses`), { code: 'ENOTFOUND' }));

      for (const { address } of answers) {
        const verdict = classifyAddress(address, policy);
        if (!verdict.allowed) {
          const reason = `${verdict.reason} (resolved from ${name})`;
          return fail(new AddressRefusedError({ rule: verdict.rule, reason, address: verdict.address, hostname: name }));
        }
      }
      if (options.all) return callback(null, answers);
      callback(null, answers[0].address, answers[0].family);
    });
  };
}

/** Some custom lookups ignore `all: true` and answer with a single address. */
function toAnswers(result: string | LookupAddress[], family: number | undefined): LookupAddress[] {
  if (Array.isArray(result)) return result;
  return result ? [{ address: result, family: family ?? isIP(result) }] : [];
}
