import ipaddr from 'ipaddr.js';
import type { IpAddress } from './ranges';
import type { AddressRule } from './rules';

export type EmbeddingRule = Extract<
  AddressRule,
  'ipv4-mapped' | 'ipv4-translated' | 'ipv4-compatible' | 'nat64' | '6to4' | 'teredo'
>;

const EMBEDDING_RULES: ReadonlySet<AddressRule> = new Set<EmbeddingRule>([
  'ipv4-mapped',
  'ipv4-translated',
  'ipv4-compatible',
  'nat64',
  '6to4',
  'teredo',
]);

export function isEmbeddingRule(rule: AddressRule): rule is EmbeddingRule {
  return EMBEDDING_RULES.has(rule);
}

/** The IPv4 address a translation/tunnel range would really deliver to. */
export function embeddedIpv4(address: IpAddress, rule: EmbeddingRule): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  switch (rule) {
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6)); // 2002:AABB:CCDD::/48
    case 'teredo':
      return new ipaddr.IPv4(bytes.slice(12, 16).map((b) => b ^ 0xff)); // client address is bit-inverted (RFC 4380)
    default:
      return new ipaddr.IPv4(bytes.slice(12, 16)); // last 32 bits; NAT64 assumes the common /96 layout
  }
}
