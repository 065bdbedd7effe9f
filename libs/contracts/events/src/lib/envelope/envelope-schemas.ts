import type { ErrorObject, ValidateFunction } from 'ajv';
import { compileClassCheck } from '../asyncapi/class-check';
import type { EventDefinition } from './event-definition';
import { EventEnvelope } from './event-envelope';

/**
 * The event classes' rules compiled once per class (asyncapi/class-check.ts): consuming a message checks it without
 * building and walking class-validator instances, and a value passes here exactly when it passes the decorators.
 */
let envelopeCheck: ValidateFunction | undefined;
const payloadChecks = new WeakMap<EventDefinition, ValidateFunction>();

/** Envelope fields only: unknown envelope keys are let through, as before. */
export function envelopeValidator(): ValidateFunction {
  envelopeCheck ??= compileClassCheck(EventEnvelope, false);
  return envelopeCheck;
}

/** The payload of one event type, closed: unknown keys are refused (whitelist + forbidNonWhitelisted). */
export function payloadValidator(definition: EventDefinition): ValidateFunction {
  let check = payloadChecks.get(definition);
  if (!check) {
    check = compileClassCheck(definition.payloadClass as new () => object, true);
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
