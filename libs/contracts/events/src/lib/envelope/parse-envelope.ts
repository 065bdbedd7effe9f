import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { EventEnvelope } from './event-envelope';
import type { EventDefinition } from './event-definition';

export type ParseResult<T extends object> =
  | { ok: true; envelope: EventEnvelope<T>; definition: EventDefinition<T> }
  | { ok: false; reason: string; eventId?: string };

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => `${path}: ${m}`);
    return [...own, ...describe(e.children ?? [], path)];
  });
}

const validationOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };

/**
 * Turns raw message bytes into a validated envelope, or a reason it cannot be processed.
 * Never throws: a bad message is parked by the caller, not retried forever.
 */
export function parseEnvelope(
  raw: Buffer | string | null,
  definitions: ReadonlyMap<string, EventDefinition>,
): ParseResult<object> {
  if (raw === null || raw.length === 0) return { ok: false, reason: 'empty message value' };
  let json: unknown;
  let pollutingKey: string | undefined;
  try {
    // class-transformer silently drops these keys, so they are refused here rather than ignored.
    json = JSON.parse(raw.toString(), (key: string, value: unknown) => {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') pollutingKey = key;
      return value;
    });
  } catch (err) {
    return { ok: false, reason: `value is not JSON: ${(err as Error).message}` };
  }
  if (pollutingKey) return { ok: false, reason: `value carries the forbidden key ${pollutingKey}` };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, reason: 'value is not a JSON object' };
  }
  const envelope = plainToInstance(EventEnvelope, json);
  const envelopeErrors = validateSync(envelope, { forbidUnknownValues: true });
  const eventId = typeof envelope.eventId === 'string' ? envelope.eventId : undefined;
  if (envelopeErrors.length > 0) return { ok: false, eventId, reason: describe(envelopeErrors).join('; ') };

  const definition = definitions.get(`${envelope.type}@${envelope.schemaVersion}`);
  if (!definition) {
    return { ok: false, eventId, reason: `unknown event type ${envelope.type} v${envelope.schemaVersion}` };
  }
  const payload = plainToInstance(definition.payloadClass, envelope.payload);
  const payloadErrors = validateSync(payload, validationOptions);
  if (payloadErrors.length > 0) {
    return { ok: false, eventId, reason: describe(payloadErrors, 'payload').join('; ') };
  }
  if (definition.keyOf(payload) !== envelope.key) {
    return { ok: false, eventId, reason: `envelope key ${envelope.key} does not match the payload` };
  }
  return { ok: true, envelope: { ...envelope, payload }, definition };
}

export function definitionMap(definitions: readonly EventDefinition[]): Map<string, EventDefinition> {
  return new Map(definitions.map((d) => [`${d.type}@${d.schemaVersion}`, d]));
}
