import { parseTargetUrl } from './url';

describe('parseTargetUrl', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://0.0.0.0/', '0.0.0.0'],
    ['http://[::1]/', '::1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
  ])('canonicalises the IP literal %s to %s', (input, hostname) => {
    expect(parseTargetUrl(input)).toMatchObject({ ok: true, hostname, ipLiteral: true });
  });

  it.each([
    ['http://localhost./', 'localhost', 'http://localhost/'],
    ['http://LOCALHOST/', 'localhost', 'http://localhost/'],
    ['https://Example.COM./hook?x=1#frag', 'example.com', 'https://example.com/hook?x=1'],
    ['https://example.com:8443/a/b', 'example.com', 'https://example.com:8443/a/b'],
    ['https://bücher.example/', 'xn--bcher-kva.example', 'https://xn--bcher-kva.example/'],
  ])('normalises the hostname of %s', (input, hostname, url) => {
    expect(parseTargetUrl(input)).toEqual({ ok: true, hostname, url, ipLiteral: false });
  });

  it.each([
    ['not a url', 'invalid-url'],
    ['/relative/path', 'invalid-url'],
    ['http://', 'invalid-url'],
    ['http://[fe80::1%25eth0]/', 'invalid-url'],
    ['http://exa mple.com/', 'invalid-url'],
    ['ftp://example.com/', 'unsupported-scheme'],
    ['file:///etc/passwd', 'unsupported-scheme'],
    ['gopher://example.com/', 'unsupported-scheme'],
    ['javascript:alert(1)', 'unsupported-scheme'],
    ['ws://example.com/', 'unsupported-scheme'],
    ['http://user:pass@example.com/', 'url-credentials'],
    ['http://user@example.com/', 'url-credentials'],
    ['https://:secret@example.com/', 'url-credentials'],
  ])('refuses %s as %s', (input, rule) => {
    expect(parseTargetUrl(input)).toMatchObject({ ok: false, rule });
  });

  it('never repeats credentials in the reason', () => {
    const result = parseTargetUrl('https://alice:s3cr3t@example.com/');
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain('s3cr3t');
  });
});
