// Stable kebab-case names: they are Prometheus label values and API error codes, so never rename one.
export const URL_RULES = ['invalid-url', 'unsupported-scheme', 'url-credentials'] as const;

export const ADDRESS_RULES = [
  'invalid-address',
  'cloud-metadata',
  'unspecified',
  'loopback',
  'private',
  'link-local',
  'shared-address',
  'ietf-protocol-assignment',
  'documentation',
  'benchmarking',
  'multicast',
  'broadcast',
  'reserved',
  'unique-local',
  'site-local',
  'discard',
  'ipv4-mapped',
  'ipv4-translated',
  'ipv4-compatible',
  'nat64',
  '6to4',
  'teredo',
] as const;

export const REFUSAL_RULES = [...URL_RULES, 'dns-failure', ...ADDRESS_RULES] as const;

export type UrlRule = (typeof URL_RULES)[number];
export type AddressRule = (typeof ADDRESS_RULES)[number];
export type RefusalRule = (typeof REFUSAL_RULES)[number];

/** Completes the sentence "<address> is …". */
export const ADDRESS_RULE_DESCRIPTIONS: Readonly<Record<AddressRule, string>> = {
  'invalid-address': 'not a valid IP address',
  'cloud-metadata': 'a cloud metadata endpoint',
  unspecified: 'an unspecified (this-network) address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  'shared-address': 'in the shared (carrier-grade NAT) address space',
  'ietf-protocol-assignment': 'in the IETF protocol assignments block',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
  multicast: 'a multicast address',
  broadcast: 'the limited broadcast address',
  reserved: 'a reserved address',
  'unique-local': 'a unique-local address',
  'site-local': 'a (deprecated) site-local address',
  discard: 'in the discard-only prefix',
  'ipv4-mapped': 'an IPv4-mapped IPv6 address',
  'ipv4-translated': 'an IPv4-translated IPv6 address',
  'ipv4-compatible': 'an IPv4-compatible IPv6 address',
  nat64: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};
