import ipaddr from 'ipaddr.js';
import type { AddressRule } from './rules';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

export interface RefusedRange {
  readonly cidr: string;
  readonly rule: AddressRule;
  readonly range: [IpAddress, number];
}

// Order matters: first match wins, so a more specific prefix sits above the one containing it.
const TABLE: ReadonlyArray<readonly [string, AddressRule]> = [
  // IPv4 (IANA IPv4 Special-Purpose Address Registry)
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['169.254.0.0/16', 'link-local'],
  ['100.64.0.0/10', 'shared-address'],
  ['192.0.0.0/24', 'ietf-protocol-assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['198.18.0.0/15', 'benchmarking'],
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast (RFC 7526)
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],

  // IPv6 (IANA IPv6 Special-Purpose Address Registry)
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4-mapped'],
  ['::ffff:0:0:0/96', 'ipv4-translated'],
  ['::/96', 'ipv4-compatible'],
  ['64:ff9b::/96', 'nat64'],
  ['64:ff9b:1::/48', 'nat64'],
  ['100::/64', 'discard'],
  ['2001::/32', 'teredo'],
  ['2001::/23', 'reserved'], // IETF protocol assignments: ORCHIDv2, benchmarking, AMT, …
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['2002::/16', '6to4'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
  // Everything outside global unicast 2000::/3 is unallocated or special, so never a public receiver.
  ['::/3', 'reserved'],
  ['4000::/2', 'reserved'],
  ['8000::/1', 'reserved'],
];

export const REFUSED_RANGES: readonly RefusedRange[] = TABLE.map(([cidr, rule]) => ({
  cidr,
  rule,
  range: ipaddr.parseCIDR(cidr),
}));

/** The first refused range containing the address, if any. */
export function findRefusedRange(address: IpAddress): RefusedRange | undefined {
  return REFUSED_RANGES.find(({ range }) => range[0].kind() === address.kind() && address.match(range));
}
