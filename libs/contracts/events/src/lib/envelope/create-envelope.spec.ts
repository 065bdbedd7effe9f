import { createEnvelope } from './create-envelope';
import { DeliveryRetryDue } from '../delivery-retry-due/delivery-retry-due.event';

const payload = { deliveryId: '5b0f4c5e-8d7a-4a59-9a40-0d4f1f7c2a11', resultId: 'res_1', attempt: 2, dueAt: '2026-11-21T10:01:00.000Z' };
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createEnvelope', () => {
  it('gives each event a UUIDv7 id, the ids sorting in the order the events were made, also within a millisecond', () => {
    const ids = Array.from({ length: 2_000 }, () => createEnvelope(DeliveryRetryDue, payload, { correlationId: 'res_1' }).eventId);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps an event id it is given', () => {
    const eventId = '0b5e2c1d-8f3a-4e6b-9c7d-1a2b3c4d5e6f';
    expect(createEnvelope(DeliveryRetryDue, payload, { correlationId: 'res_1', eventId }).eventId).toBe(eventId);
  });
});
