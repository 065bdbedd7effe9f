import { classifyAddress } from './classify';
import { classifyHostname } from './hostname';
import { EMPTY_POLICY, type AddressPolicy } from './policy';
import { SYSTEM_RESOLVER } from './resolver';
import type { RefusalRule } from './rules';
import { parseTargetUrl } from './url';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Shape of `dns.promises.lookup(host, { all: true, verbatim: true })`; injectable so tests never touch DNS. */
export type ResolveAll = (
  hostname: string,
  options: { all: true; verbatim: true },
) => Promise<readonly ResolvedAddress[]>;

export interface CheckTargetOptions {
  readonly lookup?: ResolveAll;
}

export type TargetCheck =
  | { readonly ok: true; readonly url: string; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly rule: RefusalRule; readonly address?: string; readonly reason: string };

/**
 * Save-time and send-test check of a recipient URL. Passing it is necessary, not sufficient: DNS can change
 * before delivery, which is why the dispatcher also connects through `createGuardedAgent`.
 */
export async function checkTarget(
  input: string,
  policy: AddressPolicy = EMPTY_POLICY,
  options: CheckTargetOptions = {},
): Promise<TargetCheck> {
  const parsed = parseTargetUrl(input);
  if (!parsed.ok) return parsed;
  const { url, hostname } = parsed;

  const byName = classifyHostname(hostname);
  if (byName) return { ok: false, ...byName };

  const resolution = parsed.ipLiteral
    ? { addresses: [hostname] }
    : await resolve(hostname, options.lookup ?? SYSTEM_RESOLVER.resolveAll);
  if ('failure' in resolution) return { ok: false, rule: 'dns-failure', reason: resolution.failure };
  const { addresses } = resolution;

  // Every answer must pass: the client may pick any of them, so one private record is enough to refuse.
  for (const address of addresses) {
    const verdict = classifyAddress(address, policy);
    if (!verdict.allowed) {
      const from = parsed.ipLiteral ? '' : ` (resolved from ${hostname})`;
      return { ok: false, rule: verdict.rule, address: verdict.address, reason: `${verdict.reason}${from}` };
    }
  }
  return { ok: true, url, addresses };
}

type Resolution = { readonly addresses: string[] } | { readonly failure: string };

async function resolve(hostname: string, lookup: ResolveAll): Promise<Resolution> {
  let answers: readonly ResolvedAddress[];
  try {
    answers = await lookup(hostname, { all: true, verbatim: true });
  } catch (error: unknown) {
    return { failure: `${hostname} could not be resolved (${errorCode(error)})` };
  }
  const addresses = [...new Set(answers.map((a) => a.address))];
  return addresses.length > 0 ? { addresses } : { failure: `${hostname} has no IP addresses` };
}

function errorCode(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : 'unknown error';
}
