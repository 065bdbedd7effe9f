import { InvalidAllowCidrError, parseAllowCidrs } from './policy';

describe('parseAllowCidrs', () => {
  it.each([
    ['127.0.0.0/8,::1/128', ['127.0.0.0/8', '::1/128']],
    [' 10.0.0.0/8 , 192.168.0.0/16 ', ['10.0.0.0/8', '192.168.0.0/16']],
    ['10.20.0.0/16,', ['10.20.0.0/16']],
    ['fd00:0:0:0::/8', ['fd00::/8']],
    ['169.254.169.254', ['169.254.169.254/32']],
    ['fd00:ec2::254', ['fd00:ec2::254/128']],
    ['0.0.0.0/0', ['0.0.0.0/0']],
    ['', []],
    ['   ', []],
  ])('parses %j', (input, expected) => {
    expect(parseAllowCidrs(input)).toEqual(expected);
  });

  it('treats an unset variable as no exceptions', () => {
    expect(parseAllowCidrs(undefined)).toEqual([]);
  });

  it.each([
    ['10.0.0.0/33', /prefix length must be a number from 0 to 32/],
    ['::1/129', /prefix length must be a number from 0 to 128/],
    ['10.0.0.0/', /prefix length/],
    ['10.0.0.0/8/8', /prefix length/],
    ['10.0.0.0/abc', /prefix length/],
    ['10.0.0.1/8', /host bits are set; did you mean 10\.0\.0\.0\/8\?/],
    ['fd00::1/8', /did you mean fd00::\/8\?/],
    ['10.0.0/8', /expected an IPv4/],
    ['127.1/8', /expected an IPv4/],
    ['0x7f.0.0.0/8', /expected an IPv4/],
    ['example.com/24', /expected an IPv4/],
    ['fe80::1%eth0/128', /zone/],
    ['10.0.0.0/8;192.168.0.0/16', /prefix length/],
  ])('refuses %j with a clear message', (input, message) => {
    expect(() => parseAllowCidrs(input)).toThrow(message);
  });

  it('names the offending entry', () => {
    expect(() => parseAllowCidrs('10.0.0.0/8,bogus')).toThrow(
      new InvalidAllowCidrError('bogus', 'expected an IPv4 (a.b.c.d) or IPv6 address, optionally with /prefix'),
    );
    expect(() => parseAllowCidrs('10.0.0.0/8,bogus')).toThrow('Invalid allowed CIDR "bogus"');
  });
});
