import { HeaderRecord } from './header-lookup';
import { sign } from './sign';
import { verify } from './verify';

const SECRET = 'receiver-secret';
const NOW = 1700000000;
const BODY = '{"result_id":"res_1","revision":2}';
const SIGNATURE = sign(SECRET, NOW, BODY);
const headers = (signature: string = SIGNATURE, timestamp = String(NOW)): HeaderRecord => ({
  'x-sh-signature': signature,
  'x-sh-timestamp': timestamp,
});

describe('verify', () => {
  it('rejects a tampered body', () => {
    expect(verify(SECRET, headers(), BODY.replace('2', '3'), { now: NOW })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a re-serialised body even when the JSON value is equal', () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(verify(SECRET, headers(), reserialised, { now: NOW })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects the wrong secret', () => {
    expect(verify('other-secret', headers(), BODY, { now: NOW })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it.each([
    ['too short', SIGNATURE.slice(0, -2)],
    ['too long', `${SIGNATURE}00`],
    ['non-hex of the right length', `sha256=${'z'.repeat(64)}`],
    ['hex with a trailing bad character', `${SIGNATURE.slice(0, -1)}g`],
    ['no prefix', SIGNATURE.slice('sha256='.length)],
    ['other algorithm', SIGNATURE.replace('sha256=', 'sha1=')],
    ['prefix only', 'sha256='],
  ])('returns signature_mismatch without throwing for a signature that is %s', (_label, signature) => {
    expect(verify(SECRET, headers(signature), BODY, { now: NOW })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('accepts upper-case hex, which encodes the same bytes', () => {
    const upper = `sha256=${SIGNATURE.slice(7).toUpperCase()}`;
    expect(verify(SECRET, headers(upper), BODY, { now: NOW })).toEqual({ ok: true });
  });

  it.each([
    ['missing_signature', { 'x-sh-timestamp': String(NOW) }],
    ['missing_signature', { 'x-sh-signature': '  ', 'x-sh-timestamp': String(NOW) }],
    ['missing_timestamp', { 'x-sh-signature': SIGNATURE }],
    ['bad_timestamp', headers(SIGNATURE, '1700000000.5')],
    ['bad_timestamp', headers(SIGNATURE, '-1700000000')],
    ['bad_timestamp', headers(SIGNATURE, 'yesterday')],
  ])('reports %s', (reason, input: HeaderRecord) => {
    expect(verify(SECRET, input, BODY, { now: NOW })).toEqual({ ok: false, reason });
  });

  describe('replay tolerance (injected now)', () => {
    it.each([-300, 0, 300])('accepts a request %ps from now with the default 300 s', (offset) => {
      expect(verify(SECRET, headers(), BODY, { now: NOW + offset })).toEqual({ ok: true });
    });

    it.each([
      ['in the past', NOW + 301],
      ['in the future', NOW - 301],
    ])('rejects a timestamp just outside tolerance %s', (_label, now) => {
      expect(verify(SECRET, headers(), BODY, { now })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    });

    it('honours a custom tolerance', () => {
      expect(verify(SECRET, headers(), BODY, { now: NOW + 31, toleranceSeconds: 30 })).toMatchObject({ ok: false });
      expect(verify(SECRET, headers(), BODY, { now: NOW + 30, toleranceSeconds: 30 })).toEqual({ ok: true });
    });

    it('uses the system clock when now is not given', () => {
      jest.useFakeTimers({ now: (NOW + 10) * 1000 });
      try {
        expect(verify(SECRET, headers(), BODY)).toEqual({ ok: true });
        jest.setSystemTime((NOW + 3600) * 1000);
        expect(verify(SECRET, headers(), BODY)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
      } finally {
        jest.useRealTimers();
      }
    });

    it('checks the signature over the timestamp too, so a moved timestamp fails', () => {
      expect(verify(SECRET, headers(SIGNATURE, String(NOW + 1)), BODY, { now: NOW })).toEqual({
        ok: false,
        reason: 'signature_mismatch',
      });
    });
  });

  describe('header lookup', () => {
    it.each([
      ['canonical case', { 'X-SH-Signature': SIGNATURE, 'X-SH-Timestamp': String(NOW) }],
      ['upper case', { 'X-SH-SIGNATURE': SIGNATURE, 'X-SH-TIMESTAMP': String(NOW) }],
      ['single-element arrays', { 'x-sh-signature': [SIGNATURE], 'x-sh-timestamp': [String(NOW)] }],
    ])('is case-insensitive for a plain object (%s)', (_label, input: HeaderRecord) => {
      expect(verify(SECRET, input, BODY, { now: NOW })).toEqual({ ok: true });
    });

    it('reads a Fetch API Headers object', () => {
      const fetchHeaders = new Headers({ 'X-Sh-Signature': SIGNATURE, 'x-SH-timestamp': String(NOW) });
      expect(verify(SECRET, fetchHeaders, new TextEncoder().encode(BODY), { now: NOW })).toEqual({ ok: true });
    });

    it('does not pick one of several signature values', () => {
      const input = { 'x-sh-signature': [sign('wrong', NOW, BODY), SIGNATURE], 'x-sh-timestamp': String(NOW) };
      expect(verify(SECRET, input, BODY, { now: NOW })).toEqual({ ok: false, reason: 'signature_mismatch' });
    });
  });

  it('throws on configuration errors, never on request input', () => {
    expect(() => verify('', headers(), BODY, { now: NOW })).toThrow(TypeError);
    expect(() => verify(SECRET, headers(), BODY, { now: NOW, toleranceSeconds: -1 })).toThrow(RangeError);
  });
});
