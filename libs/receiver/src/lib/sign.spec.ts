import { formatTimestamp, sign } from './sign';

const SECRET = "It's a Secret to Everybody";
const KNOWN = 'sha256=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7';

describe('sign', () => {
  it('matches the published reference vector (also checked with openssl)', () => {
    expect(sign(SECRET, 1700000000, 'Hello, World!')).toBe(KNOWN);
  });

  it('gives the same signature for a Buffer, a Uint8Array and a string timestamp', () => {
    const bytes = Buffer.from('Hello, World!', 'utf8');
    expect(sign(SECRET, '1700000000', bytes)).toBe(KNOWN);
    expect(sign(SECRET, 1700000000, new Uint8Array(bytes))).toBe(KNOWN);
  });

  it('signs a string body as its UTF-8 bytes', () => {
    const text = '{"title":"Žluťoučký kůň 東京"}';
    expect(sign('k', 1, text)).toBe(sign('k', 1, Buffer.from(text, 'utf8')));
  });

  it('changes when one byte of the body changes', () => {
    expect(sign(SECRET, 1700000000, 'Hello, World?')).not.toBe(KNOWN);
  });

  it('rejects an empty secret instead of signing with an empty key', () => {
    expect(() => sign('', 1700000000, 'x')).toThrow(TypeError);
  });

  it('rejects a parsed object in place of the raw body', () => {
    const parsed = { hello: 'world' } as unknown as string;
    expect(() => sign(SECRET, 1700000000, parsed)).toThrow(/raw request body/);
  });
});

describe('formatTimestamp', () => {
  it.each([[1700000000, '1700000000'], ['1700000000', '1700000000'], [0, '0']])('renders %p as %p', (input, out) => {
    expect(formatTimestamp(input)).toBe(out);
  });

  it.each([1.5, -1, NaN, Infinity, 1e21, '', '17e8', ' 1', '0x10', '1700000000000000000'])('rejects %p', (input) => {
    expect(() => formatTimestamp(input)).toThrow(RangeError);
  });
});
