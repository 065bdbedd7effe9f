import ipaddr from 'ipaddr.js';
import { parseIpCidr } from './parse-ip';
import type { IpAddress } from './ranges';

/** Operator exceptions for private deployments; the default allows nothing. */
export interface AddressPolicy {
  readonly allowCidrs: readonly string[];
}

export const EMPTY_POLICY: AddressPolicy = Object.freeze({ allowCidrs: Object.freeze([]) });

export class InvalidAllowCidrError extends Error {
  constructor(
    readonly entry: string,
    detail: string,
  ) {
    super(`Invalid allowed CIDR "${entry}": ${detail}`);
    this.name = 'InvalidAllowCidrError';
  }
}

/**
 * Parses a comma-separated list such as `127.0.0.0/8,::1/128` (the `ALLOWED_TARGET_CIDRS` value).
 * A bare address means that single host. Returns canonical `network/prefix` strings.
 */
export function parseAllowCidrs(input: string | undefined): string[] {
  return (input ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map(parseAllowCidr);
}

function parseAllowCidr(entry: string): string {
  const isV6 = entry.includes(':');
  const [addressPart, ...prefix] = entry.split('/');
  // Only dotted-quad IPv4: "127.1" or "0x7f.1" in a config file is far more likely a typo than intent.
  if (!(isV6 ? ipaddr.IPv6.isValid(addressPart) : ipaddr.IPv4.isValidFourPartDecimal(addressPart))) {
    throw new InvalidAllowCidrError(entry, 'expected an IPv4 (a.b.c.d) or IPv6 address, optionally with /prefix');
  }
  if (addressPart.includes('%')) {
    throw new InvalidAllowCidrError(entry, 'IPv6 zone ids are not allowed');
  }
  const parsed = parseIpCidr(prefix.length > 0 ? entry : `${entry}/${isV6 ? 128 : 32}`);
  if (!parsed) {
    throw new InvalidAllowCidrError(entry, `the prefix length must be a number from 0 to ${isV6 ? 128 : 32}`);
  }
  const [address, bits] = parsed;
  const network = networkAddress(address, bits);
  if (network.toString() !== address.toString()) {
    throw new InvalidAllowCidrError(entry, `host bits are set; did you mean ${network.toString()}/${bits}?`);
  }
  return `${network.toString()}/${bits}`;
}

function networkAddress(address: IpAddress, bits: number): IpAddress {
  const bytes = address.toByteArray().map((byte, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}

/** Parsed on every call; policies are a handful of entries, so a cache is not worth its staleness risk. */
function compilePolicy(policy: AddressPolicy): ReadonlyArray<[IpAddress, number]> {
  return policy.allowCidrs.map((cidr) => {
    const range = parseIpCidr(cidr);
    // Fail closed on a policy that skipped parseAllowCidrs: never guess what the operator meant.
    if (!range) throw new InvalidAllowCidrError(cidr, 'not a CIDR; build policies with parseAllowCidrs()');
    return range;
  });
}

export function isInAllowedCidr(address: IpAddress, policy: AddressPolicy): boolean {
  return compilePolicy(policy).some((range) => range[0].kind() === address.kind() && address.match(range));
}

/** True only for a host-length entry (/32 or /128) naming exactly this address. */
export function isExactlyAllowed(address: IpAddress, policy: AddressPolicy): boolean {
  const hostBits = address.kind() === 'ipv4' ? 32 : 128;
  return compilePolicy(policy).some(
    ([network, bits]) => bits === hostBits && network.kind() === address.kind() && address.match(network, bits),
  );
}
