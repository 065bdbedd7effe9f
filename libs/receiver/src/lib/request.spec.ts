import { Readable } from 'node:stream';
import { sign } from './sign';
import { readRawBody, verifyRawBody, verifyRequest } from './request';

const SECRET = 'request-secret';
const NOW = 1700000000;
const BODY = '{"event":"result.published","result_id":"res_1","revision":2}';
const signed = { 'x-sh-signature': sign(SECRET, NOW, BODY), 'x-sh-timestamp': String(NOW) };

function request(chunks: Array<string | Buffer>, headers: Record<string, string> = signed) {
  return Object.assign(Readable.from(chunks), { headers });
}

describe('verifyRequest', () => {
  it('joins the raw chunks, verifies them and hands back the exact bytes', async () => {
    const result = await verifyRequest(SECRET, request([BODY.slice(0, 10), Buffer.from(BODY.slice(10))]), { now: NOW });
    expect(result).toEqual({ ok: true, rawBody: Buffer.from(BODY) });
  });

  it('resolves with the verify reason instead of throwing on a forged request', async () => {
    const result = await verifyRequest(SECRET, request([BODY], { ...signed, 'x-sh-signature': 'sha256=zz' }), { now: NOW });
    expect(result).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('stops reading past limitBytes with body_too_large', async () => {
    expect(await verifyRequest(SECRET, request([BODY]), { now: NOW, limitBytes: 10 })).toEqual({ ok: false, reason: 'body_too_large' });
  });

  it('resolves with body_unreadable when the upload breaks off', async () => {
    const broken = Object.assign(
      new Readable({ read() { this.destroy(new Error('aborted')); } }),
      { headers: signed },
    );
    expect(await verifyRequest(SECRET, broken, { now: NOW })).toEqual({ ok: false, reason: 'body_unreadable' });
  });

  it("checks only the Bearer token with method: 'bearer'", async () => {
    const bearer = { authorization: `Bearer ${SECRET}` };
    expect(await verifyRequest(SECRET, request([BODY], bearer), { method: 'bearer' })).toEqual({ ok: true, rawBody: Buffer.from(BODY) });
    expect(await verifyRequest(SECRET, request([BODY], bearer))).toEqual({ ok: false, reason: 'missing_signature' });
  });
});

describe('verifyRawBody', () => {
  it('applies the timestamp tolerance', () => {
    expect(verifyRawBody(SECRET, signed, Buffer.from(BODY), { now: NOW + 301 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyRawBody(SECRET, signed, Buffer.from(BODY), { now: NOW + 301, toleranceSeconds: 400 }).ok).toBe(true);
  });
});

describe('readRawBody', () => {
  it('encodes string chunks as UTF-8', async () => {
    expect(await readRawBody(Readable.from(['ř']), 10)).toEqual(Buffer.from('ř', 'utf8'));
  });
});
