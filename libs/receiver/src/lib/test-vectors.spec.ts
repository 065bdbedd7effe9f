import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sign } from './sign';
import { verify } from './verify';

interface VectorCase {
  name: string;
  secret: string;
  timestamp: number;
  body_base64: string;
  expected_signature_header: string;
}

// The published file is the contract with receivers, so the tests read it rather than a copy.
const file = resolve(__dirname, '../../../../docs/signature-test-vectors.json');
const vectors = JSON.parse(readFileSync(file, 'utf8')) as { description: string; algorithm: string; cases: VectorCase[] };
const body = (c: VectorCase): Buffer => Buffer.from(c.body_base64, 'base64');

describe('docs/signature-test-vectors.json', () => {
  it('describes itself and covers the required cases', () => {
    expect(vectors.description).toEqual(expect.any(String));
    expect(vectors.algorithm).toContain('HMAC-SHA256');
    const names = vectors.cases.map((c) => c.name);
    for (const required of ['known_hello_world', 'utf8_czech', 'utf8_japanese', 'empty_body', 'json_compact_trailing_newline', 'json_spaced']) {
      expect(names).toContain(required);
    }
  });

  it('keeps the reference vector', () => {
    const known = vectors.cases.find((c) => c.name === 'known_hello_world');
    expect(known).toMatchObject({
      secret: "It's a Secret to Everybody",
      timestamp: 1700000000,
      expected_signature_header: 'sha256=76c83fd0acdf22faed320674fe8e04d528cfe8a17905e720a9611e40677c03b7',
    });
    expect(known && body(known).toString('utf8')).toBe('Hello, World!');
  });

  describe.each(vectors.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    it('sign() produces the expected header', () => {
      expect(sign(c.secret, c.timestamp, body(c))).toBe(c.expected_signature_header);
    });

    it('verify() accepts it and rejects a one-byte change', () => {
      const headers = { 'x-sh-signature': c.expected_signature_header, 'x-sh-timestamp': String(c.timestamp) };
      expect(verify(c.secret, headers, body(c), { now: c.timestamp })).toEqual({ ok: true });
      const tampered = Buffer.concat([body(c), Buffer.from(' ')]);
      expect(verify(c.secret, headers, tampered, { now: c.timestamp })).toEqual({ ok: false, reason: 'signature_mismatch' });
    });
  });

  it('gives the same JSON value with different bytes a different signature', () => {
    const family = vectors.cases.filter((c) => c.name.startsWith('json_'));
    expect(family.length).toBeGreaterThanOrEqual(3);
    expect(new Set(family.map((c) => JSON.stringify(JSON.parse(body(c).toString('utf8'))))).size).toBe(1);
    expect(new Set(family.map((c) => c.expected_signature_header)).size).toBe(family.length);
  });
});
