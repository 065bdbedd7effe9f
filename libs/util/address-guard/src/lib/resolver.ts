import { lookup as dnsLookup } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { ResolveAll } from './check-target';

/**
 * Where a service learns a hostname's addresses: `resolveAll` for `checkTarget`, `lookup` behind a guarded
 * connector. One object holds both so a service (or a test's fake DNS) swaps them together.
 */
export interface AddressResolver {
  readonly resolveAll: ResolveAll;
  readonly lookup: LookupFunction;
}

/** The operating system's resolver (`dns.lookup`), what every service uses outside tests. */
export const SYSTEM_RESOLVER: AddressResolver = {
  resolveAll: (hostname, options) => dnsLookupAll(hostname, options),
  lookup: dnsLookup,
};
