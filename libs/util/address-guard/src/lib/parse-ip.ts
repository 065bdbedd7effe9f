import ipaddr from 'ipaddr.js';
import type { IpAddress } from './ranges';

const DOTTED_TAIL = /^([0-9a-f:]*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%[0-9a-z]+)?$/i;

/**
 * ipaddr.js reads `::a.b.c.d` as IPv4-mapped, but RFC 4291 (and libuv, which prints peers that way)
 * means IPv4-compatible, so a dotted IPv6 tail is rewritten as hex before ipaddr.js sees it.
 */
export function parseIp(text: string): IpAddress | undefined {
  const hex = text.replace(DOTTED_TAIL, (whole, head: string, a: string, b: string, c: string, d: string, zone = '') => {
    const octets = [a, b, c, d].map(Number);
    if (octets.some((o) => o > 255)) return whole;
    const group = (hi: number, lo: number): string => ((hi << 8) | lo).toString(16);
    return `${head}${group(octets[0], octets[1])}:${group(octets[2], octets[3])}${zone}`;
  });
  return ipaddr.isValid(hex) ? ipaddr.parse(hex) : undefined;
}

/** `address/bits` with the same reading of the address as parseIp. */
export function parseIpCidr(text: string): [IpAddress, number] | undefined {
  const [addressPart, bitsPart, ...rest] = text.split('/');
  const address = parseIp(addressPart);
  const bits = Number(bitsPart);
  const max = address?.kind() === 'ipv4' ? 32 : 128;
  if (!address || rest.length > 0 || !/^\d{1,3}$/.test(bitsPart ?? '') || bits > max) return undefined;
  return [address, bits];
}
