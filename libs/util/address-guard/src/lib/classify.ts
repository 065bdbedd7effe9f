import ipaddr from 'ipaddr.js';
import { metadataProvider } from './cloud-metadata';
import { embeddedIpv4, isEmbeddingRule } from './embedded';
import { parseIp } from './parse-ip';
import { EMPTY_POLICY, isExactlyAllowed, isInAllowedCidr, type AddressPolicy } from './policy';
import { findRefusedRange, type IpAddress } from './ranges';
import { ADDRESS_RULE_DESCRIPTIONS, type AddressRule } from './rules';

export type Classification =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly rule: AddressRule; readonly address: string; readonly reason: string };

const ALLOWED: Classification = Object.freeze({ allowed: true });

/**
 * Decides whether a request may be sent to this IP address.
 * Order: cloud metadata (only an exact /32 or /128 entry allows it), then allowCidrs, then the refused ranges.
 */
export function classifyAddress(ip: string, policy: AddressPolicy = EMPTY_POLICY): Classification {
  const address = parseIp(ip);
  if (!address) {
    return refuse('invalid-address', ip, `${JSON.stringify(ip)} is not a valid IP address`);
  }
  const shown = address.toString();
  const range = findRefusedRange(address);
  const embedded = range && isEmbeddingRule(range.rule) ? embeddedIpv4(address, range.rule) : undefined;

  // Checked first, and through tunnel/translation spellings too, so that no CIDR accidentally exposes credentials.
  const provider = metadataProvider(address) ?? (embedded ? metadataProvider(embedded) : undefined);
  if (provider && !isExactlyAllowed(address, policy)) {
    const via = embedded && range ? ` embeds ${embedded.toString()} (${range.rule}), which` : '';
    return refuse('cloud-metadata', shown, `${shown}${via} is a cloud metadata endpoint (${provider})`);
  }
  if (isInAllowedCidr(address, policy) || !range) {
    return ALLOWED;
  }
  return refuse(range.rule, shown, `${shown} is ${ADDRESS_RULE_DESCRIPTIONS[range.rule]}${embeddedNote(embedded)}`);
}

/**
 * For a connected socket's `remoteAddress`: a dual-stack socket reports an IPv4 peer as `::ffff:a.b.c.d`,
 * which is a real IPv4 connection, so it is judged as that IPv4 address.
 */
export function classifyConnectedAddress(
  remoteAddress: string | undefined,
  policy: AddressPolicy = EMPTY_POLICY,
): Classification {
  const address = remoteAddress === undefined ? undefined : parseIp(remoteAddress);
  if (!address) {
    return refuse('invalid-address', String(remoteAddress), 'the connection has no usable remote IP address');
  }
  const peer = address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
  return classifyAddress(peer.toString(), policy);
}

function embeddedNote(embedded: IpAddress | undefined): string {
  if (!embedded) return '';
  const inner = findRefusedRange(embedded);
  return ` embedding ${embedded.toString()}${inner ? ` (${inner.rule})` : ''}`;
}

function refuse(rule: AddressRule, address: string, reason: string): Classification {
  return { allowed: false, rule, address, reason };
}
