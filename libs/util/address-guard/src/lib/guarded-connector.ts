import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector } from 'undici';
import { classifyAddress, classifyConnectedAddress } from './classify';
import { AddressRefusedError } from './errors';
import { createGuardedLookup } from './guarded-lookup';
import { normalizeHostname } from './hostname';
import { EMPTY_POLICY, type AddressPolicy } from './policy';
import { undici } from './undici';

export type GuardedConnectorOptions = Omit<buildConnector.BuildOptions, 'lookup' | 'socketPath'> & {
  /** Resolver behind the guard (default `dns.lookup`); tests inject one so they never query real DNS. */
  readonly baseLookup?: LookupFunction;
};

/** undici connector that refuses targets outside the policy (see `guardConnector` for the checks). */
export function createGuardedConnector(
  policy: AddressPolicy = EMPTY_POLICY,
  options: GuardedConnectorOptions = {},
): buildConnector.connector {
  const { baseLookup, ...connectOptions } = options;
  return guardConnector(policy, undici().buildConnector({ ...connectOptions, lookup: createGuardedLookup(policy, baseLookup) }));
}

/**
 * Wraps any connector with two checks the lookup alone cannot give:
 * node never calls `lookup` for an IP-literal host, and the connected peer is re-checked as a last line.
 */
export function guardConnector(policy: AddressPolicy, connect: buildConnector.connector): buildConnector.connector {
  return (target, callback) => {
    const hostname = normalizeHostname(target.hostname);
    if (isIP(hostname) !== 0) {
      const verdict = classifyAddress(hostname, policy);
      if (!verdict.allowed) {
        return callback(new AddressRefusedError({ ...verdict, hostname }), null);
      }
    }
    connect(target, (error, socket) => {
      if (error) return callback(error, null);
      const verdict = classifyConnectedAddress(socket.remoteAddress, policy);
      if (!verdict.allowed) {
        socket.destroy();
        return callback(new AddressRefusedError({ ...verdict, hostname }), null);
      }
      callback(null, socket);
    });
  };
}
