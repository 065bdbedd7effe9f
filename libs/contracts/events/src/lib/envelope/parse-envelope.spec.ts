import Ajv from 'ajv';
import { createEnvelope } from './create-envelope';
import { compileChecks, definitionMap, parseEnvelope } from './parse-envelope';
import { ALL_EVENTS } from '../registry';
import { DeliveryRetryDue } from '../delivery-retry-due/delivery-retry-due.event';

const definitions = definitionMap(ALL_EVENTS);
const payload = {
  deliveryId: '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11',
  resultId: 'res_1',
  attempt: 2,
  dueAt: '2026-11-21T10:01:00.000Z',
};

function raw(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

describe('parseEnvelope', () => {
  it('accepts a valid envelope and returns its validated payload and definition', () => {
    const env = createEnvelope(DeliveryRetryDue, payload, { correlationId: 'res_1' });
    const parsed = parseEnvelope(raw(env), definitions);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.definition.type).toBe('delivery.retry-due');
      expect(parsed.envelope.payload).toMatchObject(payload);
      expect(parsed.envelope.key).toBe('res_1');
    }
  });

  it.each([
    ['not JSON', Buffer.from('{nope')],
    ['a JSON array', raw([1, 2])],
    ['empty', Buffer.alloc(0)],
  ])('rejects a value that is %s', (_name, value) => {
    expect(parseEnvelope(value, definitions).ok).toBe(false);
  });

  it('names the failing payload field', () => {
    const env = createEnvelope(DeliveryRetryDue, { ...payload, attempt: 7 }, { correlationId: 'x' });
    const parsed = parseEnvelope(raw(env), definitions);
    expect(parsed).toMatchObject({ ok: false, eventId: env.eventId });
    if (!parsed.ok) expect(parsed.reason).toMatch(/payload\.attempt/);
  });

  it.each([
    ['an unknown key', '"extra":1'],
    ['a __proto__ key', '"__proto__":{"admin":true}'],
  ])('rejects a payload with %s', (_name, injected) => {
    const env = createEnvelope(DeliveryRetryDue, payload, { correlationId: 'x' });
    const text = JSON.stringify(env).replace('"attempt":2', `"attempt":2,${injected}`);
    expect(parseEnvelope(Buffer.from(text), definitions).ok).toBe(false);
  });

  it('rejects an unknown event type or version', () => {
    const env = { ...createEnvelope(DeliveryRetryDue, payload, { correlationId: 'x' }), schemaVersion: 99 };
    const parsed = parseEnvelope(raw(env), definitions);
    expect(parsed).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown event type/) });
  });

  it('rejects an envelope whose key does not match the payload', () => {
    const env = { ...createEnvelope(DeliveryRetryDue, payload, { correlationId: 'x' }), key: 'other' };
    expect(parseEnvelope(raw(env), definitions)).toMatchObject({ ok: false });
  });
});

describe('compileChecks', () => {
  it('compiles the checks ahead, so parsing the first message of a type compiles nothing', () => {
    // Fresh definitions: the checks of ALL_EVENTS may already be compiled by the tests above.
    const fresh = ALL_EVENTS.map((definition) => ({ ...definition }));
    const compile = jest.spyOn(Ajv.prototype, 'compile');
    try {
      compileChecks(fresh);
      expect(compile.mock.calls.length).toBeGreaterThanOrEqual(fresh.length);
      compile.mockClear();
      const parsed = parseEnvelope(raw(createEnvelope(DeliveryRetryDue, payload, { correlationId: 'res_1' })), definitionMap(fresh));
      expect(parsed.ok).toBe(true);
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });
});
