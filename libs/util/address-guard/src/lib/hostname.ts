import { isMetadataHostname } from './cloud-metadata';
import type { AddressRule } from './rules';

export interface HostnameRefusal {
  readonly rule: Extract<AddressRule, 'cloud-metadata' | 'loopback'>;
  readonly reason: string;
}

/** Lower-case, no IPv6 brackets, no trailing dots: `LOCALHOST.` and `localhost` must compare equal. */
export function normalizeHostname(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.toLowerCase().replace(/\.+$/, '');
}

/**
 * Names refused before any DNS query: metadata names resolve only inside the cloud (so DNS in a test or
 * another region says nothing), and RFC 6761 makes `localhost` loopback whatever a resolver answers.
 */
export function classifyHostname(hostname: string): HostnameRefusal | undefined {
  const name = normalizeHostname(hostname);
  if (isMetadataHostname(name)) {
    return { rule: 'cloud-metadata', reason: `${name} is a cloud metadata hostname` };
  }
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return { rule: 'loopback', reason: `${name} is a loopback hostname` };
  }
  return undefined;
}
