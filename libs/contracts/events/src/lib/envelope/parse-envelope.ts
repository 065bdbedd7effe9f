import { describeErrors, envelopeValidator, payloadValidator } from './envelope-schemas';
import type { EventEnvelope } from './event-envelope';
import type { EventDefinition } from './event-definition';

export type ParseResult<T extends object> =
  | { ok: true; envelope: EventEnvelope<T>; definition: EventDefinition<T> }
  | { ok: false; reason: string; eventId?: string };

const MAYBE_POLLUTING = /__proto__|constructor|prototype|\\u/;

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
  const text = raw.toString();
  try {
    // Keys that would reach an object's prototype are refused, not ignored. The reviver
    // (slow) runs only when such a key could be there, spelled out or escaped.
    json = MAYBE_POLLUTING.test(text)
      ? JSON.parse(text, (key: string, value: unknown) => {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') pollutingKey = key;
        return value;
      })
      : JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `value is not JSON: ${(err as Error).message}` };
  }
  if (pollutingKey) return { ok: false, reason: `value carries the forbidden key ${pollutingKey}` };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, reason: 'value is not a JSON object' };
  }
  const checkEnvelope = envelopeValidator();
  const eventId = typeof (json as { eventId?: unknown }).eventId === 'string' ? (json as { eventId: string }).eventId : undefined;
  if (!checkEnvelope(json)) return { ok: false, eventId, reason: describeErrors(checkEnvelope.errors) };
  const envelope = json as EventEnvelope;

  const definition = definitions.get(`${envelope.type}@${envelope.schemaVersion}`);
  if (!definition) {
    return { ok: false, eventId, reason: `unknown event type ${envelope.type} v${envelope.schemaVersion}` };
  }
  const checkPayload = payloadValidator(definition);
  if (!checkPayload(envelope.payload)) return { ok: false, eventId, reason: describeErrors(checkPayload.errors, 'payload') };
  // An instance of the payload class (the notifier tells the types apart with instanceof); the checked JSON as it is.
  const payload: object = Object.assign(Object.create(definition.payloadClass.prototype) as object, envelope.payload);
  if (definition.keyOf(payload) !== envelope.key) {
    return { ok: false, eventId, reason: `envelope key ${envelope.key} does not match the payload` };
  }
  return { ok: true, envelope: { ...envelope, payload }, definition };
}

/**
 * Compiles the envelope's check and these definitions' payload checks now (each is compiled once per process), so
 * that the first message of a type does not stop the event loop for the tens of milliseconds a compile takes.
 */
export function compileChecks(definitions: Iterable<EventDefinition>): void {
  envelopeValidator();
  for (const definition of definitions) payloadValidator(definition);
}

export function definitionMap(definitions: readonly EventDefinition[]): Map<string, EventDefinition> {
  return new Map(definitions.map((d) => [`${d.type}@${d.schemaVersion}`, d]));
}

/** Narrows a parsed envelope to the event a definition describes (its payload then has that class's type). */
export function is<T extends object>(envelope: EventEnvelope, definition: EventDefinition<T>): envelope is EventEnvelope<T> {
  return envelope.type === definition.type && envelope.schemaVersion === definition.schemaVersion;
}
