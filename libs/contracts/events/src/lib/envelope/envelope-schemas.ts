import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { isUUID } from 'class-validator';
import { isAsciiEmail, isRfc3339DateTime } from '../formats/formats';
import { classSchema, SchemaComponents } from '../asyncapi/json-schema';
import type { EventDefinition } from './event-definition';
import { EventEnvelope } from './event-envelope';

/**
 * The event classes' rules as JSON Schema (the generator the AsyncAPI document uses), compiled once per class:
 * consuming a message checks it without building and walking class-validator instances. The formats are
 * the decorators' own functions (formats/formats.ts), so a value passes here exactly when it passes the decorator.
 */
const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('uuid', (s: string) => isUUID(s));
ajv.addFormat('date-time', (s: string) => isRfc3339DateTime(s));
ajv.addFormat('email', (s: string) => isAsciiEmail(s));

function compile(cls: new () => object, closed: boolean): ValidateFunction {
  const components = new SchemaComponents();
  const root = classSchema(cls, closed, components);
  return ajv.compile({ ...root, components: { schemas: components.schemas } });
}

let envelopeCheck: ValidateFunction | undefined;
const payloadChecks = new WeakMap<EventDefinition, ValidateFunction>();

/** Envelope fields only: unknown envelope keys are let through, as before. */
export function envelopeValidator(): ValidateFunction {
  envelopeCheck ??= compile(EventEnvelope, false);
  return envelopeCheck;
}

/** The payload of one event type, closed: unknown keys are refused (whitelist + forbidNonWhitelisted). */
export function payloadValidator(definition: EventDefinition): ValidateFunction {
  let check = payloadChecks.get(definition);
  if (!check) {
    check = compile(definition.payloadClass as new () => object, true);
    payloadChecks.set(definition, check);
  }
  return check;
}

/** `payload.attempt: must be integer`: the path in dots, as the reasons in dead-letter headers always read. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, prefix = ''): string {
  return (errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : '';
    const path = [prefix, ...e.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.');
    return `${path || '(value)'}: ${e.message ?? e.keyword}${extra}`;
  }).join('; ');
}
