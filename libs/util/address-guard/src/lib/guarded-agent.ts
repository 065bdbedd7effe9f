import type { Agent } from 'undici';
import { createGuardedConnector, type GuardedConnectorOptions } from './guarded-connector';
import { EMPTY_POLICY, type AddressPolicy } from './policy';
import { undici } from './undici';

// A custom `factory` could bring its own unguarded connector; the connect settings left out here are
// ignored by undici once `connect` is a function, so they belong in `connect` instead.
type Excluded =
  | 'connect'
  | 'factory'
  | 'socketPath'
  | 'connectTimeout'
  | 'maxCachedSessions'
  | 'autoSelectFamily'
  | 'autoSelectFamilyAttemptTimeout';

export type GuardedAgentOptions = Omit<Agent.Options, Excluded> & {
  readonly connect?: GuardedConnectorOptions;
};

/** The dispatcher for every outbound delivery: `request(url, { dispatcher: createGuardedAgent(policy) })`. */
export function createGuardedAgent(policy: AddressPolicy = EMPTY_POLICY, options: GuardedAgentOptions = {}): Agent {
  const { connect, ...agentOptions } = options;
  return new (undici().Agent)({ ...agentOptions, connect: createGuardedConnector(policy, connect) });
}
