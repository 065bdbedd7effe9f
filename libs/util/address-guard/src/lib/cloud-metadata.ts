import ipaddr from 'ipaddr.js';
import type { IpAddress } from './ranges';

// Instance metadata services hand out cloud credentials, so they get their own rule and reason.
const METADATA_ADDRESSES: ReadonlyArray<readonly [string, string]> = [
  ['169.254.169.254', 'AWS, GCP, Azure, OpenStack and others'],
  ['169.254.170.2', 'AWS ECS task metadata'],
  ['169.254.170.23', 'AWS EKS Pod Identity'],
  ['100.100.100.200', 'Alibaba Cloud'],
  ['192.0.0.192', 'Oracle Cloud'],
  ['fd00:ec2::254', 'AWS IPv6'],
  ['fd00:ec2::23', 'AWS EKS Pod Identity IPv6'],
];

const PARSED = METADATA_ADDRESSES.map(([address, provider]) => ({
  address: ipaddr.parse(address),
  provider,
}));

export const METADATA_HOSTNAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** The provider label when the address is a metadata endpoint. */
export function metadataProvider(address: IpAddress): string | undefined {
  return PARSED.find((m) => sameAddress(m.address, address))?.provider;
}

/** Byte comparison, so an IPv6 zone id (fe80::1%eth0) cannot dodge the match. */
export function sameAddress(a: IpAddress, b: IpAddress): boolean {
  return a.kind() === b.kind() && a.toByteArray().join('.') === b.toByteArray().join('.');
}

/** Expects a lower-cased hostname without trailing dot (as parseTargetUrl returns it). */
export function isMetadataHostname(hostname: string): boolean {
  return METADATA_HOSTNAMES.has(hostname);
}
