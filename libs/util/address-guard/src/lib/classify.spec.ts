import { classifyAddress, classifyConnectedAddress } from './classify';
import { EMPTY_POLICY } from './policy';
import type { AddressRule } from './rules';

describe('classifyAddress', () => {
  const refused: ReadonlyArray<readonly [string, AddressRule]> = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'shared-address'],
    ['100.127.255.255', 'shared-address'],
    ['192.0.0.8', 'ietf-protocol-assignment'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.99', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:10::1', 'reserved'], // deprecated ORCHID
    ['2001:20::1', 'reserved'], // ORCHIDv2
    ['2001:2::1', 'reserved'], // benchmarking, inside 2001::/23
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::ffff:0:a00:1', 'ipv4-translated'],
    ['::127.0.0.1', 'ipv4-compatible'],
    ['::8.8.8.8', 'ipv4-compatible'],
    ['64:ff9b::7f00:1', 'nat64'],
    ['64:ff9b::808:808', 'nat64'],
    ['64:ff9b:1::a00:1', 'nat64'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['4000::1', 'reserved'], // outside global unicast 2000::/3
    ['1000::1', 'reserved'],
    ['5f00::1', 'reserved'], // SRv6 SIDs
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['169.254.170.23', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['192.0.0.192', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fd00:ec2:0:0:0:0:0:254', 'cloud-metadata'],
    ['fd00:ec2::23', 'cloud-metadata'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['not-an-ip', 'invalid-address'],
    ['', 'invalid-address'],
    ['1.2.3.4.5', 'invalid-address'],
  ];

  it.each(refused)('refuses %s as %s', (ip, rule) => {
    expect(classifyAddress(ip, EMPTY_POLICY)).toMatchObject({ allowed: false, rule });
  });

  const publicAddresses = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1', // just outside 172.16/12
    '100.128.0.1', // just outside 100.64/10
    '198.20.0.1', // just outside 198.18/15
    '192.0.3.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '2001:200::1', // just outside 2001::/23
  ];

  it.each(publicAddresses)('allows public address %s', (ip) => {
    expect(classifyAddress(ip, EMPTY_POLICY)).toEqual({ allowed: true });
  });

  it('defaults to the empty policy', () => {
    expect(classifyAddress('127.0.0.1')).toMatchObject({ allowed: false, rule: 'loopback' });
  });

  describe('reasons', () => {
    it.each([
      ['127.0.0.1', '127.0.0.1 is a loopback address'],
      ['10.1.2.3', '10.1.2.3 is a private address'],
      ['0:0:0:0:0:0:0:1', '::1 is a loopback address'],
      ['::ffff:127.0.0.1', '::ffff:7f00:1 is an IPv4-mapped IPv6 address embedding 127.0.0.1 (loopback)'],
      ['::ffff:8.8.8.8', '::ffff:808:808 is an IPv4-mapped IPv6 address embedding 8.8.8.8'],
      ['64:ff9b::a00:1', '64:ff9b::a00:1 is a NAT64 address embedding 10.0.0.1 (private)'],
      ['2002:c0a8:101::1', '2002:c0a8:101::1 is a 6to4 address embedding 192.168.1.1 (private)'],
      // Teredo client 192.0.2.45 is stored bit-inverted in the last 32 bits (RFC 4380 example).
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:4136:e378:8000:63bf:3fff:fdd2 is a Teredo address embedding 192.0.2.45 (documentation)'],
      ['169.254.169.254', '169.254.169.254 is a cloud metadata endpoint (AWS, GCP, Azure, OpenStack and others)'],
      ['100.100.100.200', '100.100.100.200 is a cloud metadata endpoint (Alibaba Cloud)'],
      [
        '::ffff:169.254.169.254',
        '::ffff:a9fe:a9fe embeds 169.254.169.254 (ipv4-mapped), which is a cloud metadata endpoint (AWS, GCP, Azure, OpenStack and others)',
      ],
    ])('explains %s', (ip, reason) => {
      expect(classifyAddress(ip, EMPTY_POLICY)).toMatchObject({ allowed: false, reason });
    });

    it('reports the canonical address', () => {
      expect(classifyAddress('0:0:0:0:0:ffff:7f00:1', EMPTY_POLICY)).toMatchObject({ address: '::ffff:7f00:1' });
    });
  });

  describe('allowCidrs', () => {
    const loopbackAllowed = { allowCidrs: ['127.0.0.0/8'] };

    it('lets an address inside an allowed CIDR through', () => {
      expect(classifyAddress('127.0.0.1', loopbackAllowed)).toEqual({ allowed: true });
      expect(classifyAddress('127.9.9.9', loopbackAllowed)).toEqual({ allowed: true });
    });

    it('still refuses addresses outside it', () => {
      expect(classifyAddress('169.254.169.254', loopbackAllowed)).toMatchObject({ rule: 'cloud-metadata' });
      expect(classifyAddress('10.0.0.1', loopbackAllowed)).toMatchObject({ rule: 'private' });
      expect(classifyAddress('::1', loopbackAllowed)).toMatchObject({ rule: 'loopback' });
    });

    it('does not extend an IPv4 CIDR to IPv6 spellings of it', () => {
      expect(classifyAddress('::ffff:127.0.0.1', loopbackAllowed)).toMatchObject({ rule: 'ipv4-mapped' });
    });

    it('never lets a broad CIDR expose cloud metadata', () => {
      const linkLocal = { allowCidrs: ['169.254.0.0/16', '0.0.0.0/0', '::/0'] };
      expect(classifyAddress('169.254.1.1', linkLocal)).toEqual({ allowed: true });
      expect(classifyAddress('169.254.169.254', linkLocal)).toMatchObject({ rule: 'cloud-metadata' });
      expect(classifyAddress('100.100.100.200', linkLocal)).toMatchObject({ rule: 'cloud-metadata' });
      expect(classifyAddress('fd00:ec2::254', linkLocal)).toMatchObject({ rule: 'cloud-metadata' });
      expect(classifyAddress('::ffff:169.254.169.254', linkLocal)).toMatchObject({ rule: 'cloud-metadata' });
    });

    it('allows a metadata address only when listed as that exact host', () => {
      expect(classifyAddress('169.254.169.254', { allowCidrs: ['169.254.169.254/32'] })).toEqual({ allowed: true });
      expect(classifyAddress('fd00:ec2::254', { allowCidrs: ['fd00:ec2::254/128'] })).toEqual({ allowed: true });
      expect(classifyAddress('169.254.170.2', { allowCidrs: ['169.254.169.254/32'] })).toMatchObject({
        rule: 'cloud-metadata',
      });
    });

    it('fails closed on a policy that was not built with parseAllowCidrs', () => {
      expect(() => classifyAddress('8.8.8.8', { allowCidrs: ['ten-slash-eight'] })).toThrow(/Invalid allowed CIDR/);
    });
  });
});

describe('classifyConnectedAddress', () => {
  it('judges an IPv4-mapped peer as the IPv4 address it is', () => {
    expect(classifyConnectedAddress('::ffff:93.184.216.34', EMPTY_POLICY)).toEqual({ allowed: true });
    expect(classifyConnectedAddress('::ffff:127.0.0.1', EMPTY_POLICY)).toMatchObject({
      rule: 'loopback',
      address: '127.0.0.1',
    });
    expect(classifyConnectedAddress('::ffff:127.0.0.1', { allowCidrs: ['127.0.0.0/8'] })).toEqual({ allowed: true });
    expect(classifyConnectedAddress('::ffff:169.254.169.254', EMPTY_POLICY)).toMatchObject({ rule: 'cloud-metadata' });
  });

  it('classifies plain peers like classifyAddress', () => {
    expect(classifyConnectedAddress('10.0.0.7', EMPTY_POLICY)).toMatchObject({ rule: 'private' });
    expect(classifyConnectedAddress('2606:4700:4700::1111', EMPTY_POLICY)).toEqual({ allowed: true });
  });

  it('refuses a socket without a remote address (closed, or a unix socket)', () => {
    expect(classifyConnectedAddress(undefined, EMPTY_POLICY)).toMatchObject({ rule: 'invalid-address' });
  });
});
