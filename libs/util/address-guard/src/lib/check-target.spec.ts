import { fakeDns } from '../testing/fake-dns';
import { checkTarget, type ResolveAll } from './check-target';
import { EMPTY_POLICY } from './policy';
import type { RefusalRule } from './rules';

const noDns: ResolveAll = () => Promise.reject(new Error('DNS must not be queried in this test'));

describe('checkTarget', () => {
  describe('IP-literal spellings (no DNS)', () => {
    it.each<readonly [string, RefusalRule, string]>([
      ['http://2130706433/', 'loopback', '127.0.0.1'],
      ['http://0x7f.1/', 'loopback', '127.0.0.1'],
      ['http://127.1/', 'loopback', '127.0.0.1'],
      ['http://0177.0.0.1/', 'loopback', '127.0.0.1'],
      ['http://127.0.0.1:8080/hook', 'loopback', '127.0.0.1'],
      ['http://[::1]/', 'loopback', '::1'],
      ['http://[0:0:0:0:0:0:0:1]/', 'loopback', '::1'],
      ['http://[::ffff:7f00:1]/', 'ipv4-mapped', '::ffff:7f00:1'],
      ['http://[::ffff:127.0.0.1]/', 'ipv4-mapped', '::ffff:7f00:1'],
      ['http://[::127.0.0.1]/', 'ipv4-compatible', '::7f00:1'],
      ['http://0/', 'unspecified', '0.0.0.0'],
      ['http://0.0.0.0/', 'unspecified', '0.0.0.0'],
      ['http://10.0.0.1/', 'private', '10.0.0.1'],
      ['http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/', 'cloud-metadata', '169.254.169.254'],
      ['http://169.254.169.254/latest/meta-data/', 'cloud-metadata', '169.254.169.254'],
      ['http://[fd00:ec2::254]/', 'cloud-metadata', 'fd00:ec2::254'],
      ['http://[64:ff9b::7f00:1]/', 'nat64', '64:ff9b::7f00:1'],
      ['http://[2002:7f00:1::]/', '6to4', '2002:7f00:1::'],
      ['https://[fe80::1]/', 'link-local', 'fe80::1'],
      ['https://[fc00::1]/', 'unique-local', 'fc00::1'],
    ])('refuses %s as %s', async (url, rule, address) => {
      await expect(checkTarget(url, EMPTY_POLICY, { lookup: noDns })).resolves.toMatchObject({
        ok: false,
        rule,
        address,
      });
    });

    it('explains a refusal in a sentence', async () => {
      await expect(checkTarget('http://127.0.0.1/', EMPTY_POLICY, { lookup: noDns })).resolves.toEqual({
        ok: false,
        rule: 'loopback',
        address: '127.0.0.1',
        reason: '127.0.0.1 is a loopback address',
      });
    });

    it.each(['https://8.8.8.8/hook', 'https://1.1.1.1/', 'https://[2606:4700:4700::1111]/'])(
      'allows the public address %s',
      async (url) => {
        await expect(checkTarget(url, EMPTY_POLICY, { lookup: noDns })).resolves.toMatchObject({ ok: true });
      },
    );
  });

  describe('hostnames refused by name (no DNS)', () => {
    it.each<readonly [string, RefusalRule]>([
      ['http://localhost./', 'loopback'],
      ['http://LOCALHOST/', 'loopback'],
      ['http://api.localhost/', 'loopback'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'cloud-metadata'],
      ['http://metadata.google.internal./', 'cloud-metadata'],
      ['http://METADATA/', 'cloud-metadata'],
      ['http://metadata.goog/', 'cloud-metadata'],
      ['http://instance-data/', 'cloud-metadata'],
      ['http://instance-data.ec2.internal/', 'cloud-metadata'],
    ])('refuses %s as %s', async (url, rule) => {
      const result = await checkTarget(url, EMPTY_POLICY, { lookup: noDns });
      expect(result).toMatchObject({ ok: false, rule });
      expect(result).not.toHaveProperty('address');
    });

    it('refuses metadata names even when an allowed CIDR would cover their address', async () => {
      const policy = { allowCidrs: ['169.254.0.0/16'] };
      await expect(checkTarget('http://metadata.google.internal/', policy, { lookup: noDns })).resolves.toEqual({
        ok: false,
        rule: 'cloud-metadata',
        reason: 'metadata.google.internal is a cloud metadata hostname',
      });
    });
  });

  describe('URL problems', () => {
    it.each<readonly [string, RefusalRule]>([
      ['ftp://example.com/', 'unsupported-scheme'],
      ['http://user:pass@example.com/', 'url-credentials'],
      ['no scheme here', 'invalid-url'],
    ])('refuses %s as %s', async (url, rule) => {
      await expect(checkTarget(url, EMPTY_POLICY, { lookup: noDns })).resolves.toMatchObject({ ok: false, rule });
    });
  });

  describe('resolved hostnames', () => {
    const dns = fakeDns({
      'receiver.example': [['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
      'mixed.example': [['93.184.216.34', '10.0.0.5']],
      'mixed-v6.example': [['93.184.216.34', 'fd00::5']],
      'internal.example': [['192.168.1.20']],
      'imds.example': [['169.254.169.254']],
      'empty.example': [[]],
      'loopback.example': [['127.0.0.1']],
    });
    const lookup = dns.resolveAll;

    it('allows a name whose every address is public and returns them all', async () => {
      await expect(checkTarget('https://receiver.example/hook#x', EMPTY_POLICY, { lookup })).resolves.toEqual({
        ok: true,
        url: 'https://receiver.example/hook',
        addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      });
    });

    it.each<readonly [string, RefusalRule, string]>([
      ['https://mixed.example/', 'private', '10.0.0.5'],
      ['https://mixed-v6.example/', 'unique-local', 'fd00::5'],
      ['https://internal.example/', 'private', '192.168.1.20'],
      ['https://imds.example/', 'cloud-metadata', '169.254.169.254'],
    ])('refuses %s because one answer is %s', async (url, rule, address) => {
      await expect(checkTarget(url, EMPTY_POLICY, { lookup })).resolves.toMatchObject({ ok: false, rule, address });
    });

    it('names the hostname in the reason', async () => {
      await expect(checkTarget('https://mixed.example/', EMPTY_POLICY, { lookup })).resolves.toMatchObject({
        reason: '10.0.0.5 is a private address (resolved from mixed.example)',
      });
    });

    it('refuses a name with no addresses as dns-failure', async () => {
      await expect(checkTarget('https://empty.example/', EMPTY_POLICY, { lookup })).resolves.toEqual({
        ok: false,
        rule: 'dns-failure',
        reason: 'empty.example has no IP addresses',
      });
    });

    it('refuses an unresolvable name as dns-failure with the resolver code', async () => {
      await expect(checkTarget('https://nowhere.example/', EMPTY_POLICY, { lookup })).resolves.toEqual({
        ok: false,
        rule: 'dns-failure',
        reason: 'nowhere.example could not be resolved (ENOTFOUND)',
      });
    });

    it('asks for every address, verbatim', async () => {
      const calls: unknown[] = [];
      const spy: ResolveAll = async (hostname, options) => {
        calls.push([hostname, options]);
        return [{ address: '93.184.216.34', family: 4 }];
      };
      await checkTarget('https://Receiver.Example./', EMPTY_POLICY, { lookup: spy });
      expect(calls).toEqual([['receiver.example', { all: true, verbatim: true }]]);
    });

    it('lets allowCidrs admit a private answer, but not metadata', async () => {
      const policy = { allowCidrs: ['127.0.0.0/8', '169.254.0.0/16'] };
      await expect(checkTarget('http://loopback.example/', policy, { lookup })).resolves.toMatchObject({ ok: true });
      await expect(checkTarget('http://imds.example/', policy, { lookup })).resolves.toMatchObject({
        ok: false,
        rule: 'cloud-metadata',
      });
    });
  });
});
