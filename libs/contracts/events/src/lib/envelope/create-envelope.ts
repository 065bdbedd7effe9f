import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from './event-envelope';
import type { EventDefinition } from './event-definition';

export interface EnvelopeContext {
  correlationId: string;
  causationId?: string | null;
  /** Injected in tests; the wall clock otherwise. */
  now?: Date;
  eventId?: string;
}

export function createEnvelope<T extends object>(
  definition: EventDefinition<T>,
  payload: T,
  context: EnvelopeContext,
): EventEnvelope<T> {
  return {
    eventId: context.eventId ?? randomUUID(),
    type: definition.type,
    schemaVersion: definition.schemaVersion,
    occurredAt: (context.now ?? new Date()).toISOString(),
    correlationId: context.correlationId,
    causationId: context.causationId ?? null,
    key: definition.keyOf(payload),
    payload,
  };
}
