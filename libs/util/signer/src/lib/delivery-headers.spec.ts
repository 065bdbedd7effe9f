import { buildDeliveryHeaders } from './delivery-headers';
import { DELIVERY_HEADER, sign, verify, verifyBearer } from '@owd/receiver';

const base = { resultId: 'res_01H', deliveryId: 'dlv_7', timestamp: 1700000000, rawBody: '{"payload_version":5}' };

describe('buildDeliveryHeaders', () => {
  it('is accepted by the receiver package: verify() and verifyBearer() with node-style lower-case names', () => {
    const sent = buildDeliveryHeaders({ ...base, secret: 's3cret' });
    const received = Object.fromEntries(Object.entries(sent).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verify('s3cret', received, Buffer.from(base.rawBody), { now: base.timestamp })).toEqual({ ok: true });
    expect(verifyBearer('s3cret', received)).toEqual({ ok: true });
    expect(verify('other', received, Buffer.from(base.rawBody), { now: base.timestamp })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('sends the four always-present headers and nothing else without a secret', () => {
    expect(buildDeliveryHeaders(base)).toEqual({
      'Content-Type': 'application/json',
      'Idempotency-Key': 'res_01H',
      'X-SH-Delivery': 'dlv_7',
      'X-SH-Timestamp': '1700000000',
    });
  });

  it.each([undefined, null, ''])('treats secret %p as no secret', (secret) => {
    const headers = buildDeliveryHeaders({ ...base, secret });
    expect(headers).not.toHaveProperty(DELIVERY_HEADER.AUTHORIZATION);
    expect(headers).not.toHaveProperty(DELIVERY_HEADER.SIGNATURE);
  });

  it('adds Bearer authorization and the signature over the same timestamp when a secret is set', () => {
    const headers = buildDeliveryHeaders({ ...base, timestamp: '1700000000', secret: 's3cret' });
    expect(headers[DELIVERY_HEADER.AUTHORIZATION]).toBe('Bearer s3cret');
    expect(headers[DELIVERY_HEADER.SIGNATURE]).toBe(sign('s3cret', headers[DELIVERY_HEADER.TIMESTAMP], base.rawBody));
    expect(Object.keys(headers)).toHaveLength(6);
  });

  it('uses the result id as Idempotency-Key, unchanged across deliveries', () => {
    const first = buildDeliveryHeaders({ ...base, deliveryId: 'a' });
    const second = buildDeliveryHeaders({ ...base, deliveryId: 'b', timestamp: 1700000060 });
    expect(first[DELIVERY_HEADER.IDEMPOTENCY_KEY]).toBe(second[DELIVERY_HEADER.IDEMPOTENCY_KEY]);
  });

  it('refuses a secret that cannot travel in a header, without echoing it', () => {
    const message = thrownMessage(() => buildDeliveryHeaders({ ...base, secret: 'hunter2\r\nX-Evil: 1' }));
    expect(message).toMatch(/^secret must be/);
    expect(message).not.toContain('hunter2');
  });

  it.each([{ resultId: '' }, { deliveryId: 'a\nb' }, { timestamp: 1.5 }])('refuses invalid input %p', (bad) => {
    expect(() => buildDeliveryHeaders({ ...base, ...bad })).toThrow();
  });
});

function thrownMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a throw');
}
