import { v7 as uuidv7 } from 'uuid';
import type { EventEnvelope } from './event-envelope';
import type { EventDefinition } from './event-definition';

export interface EnvelopeContext {
  correlationId: string;
  causationId?: string | null;
  /** Injected in tests; the wall clock otherwise. */
  now?: Date;
  eventId?: string;
}

/**
 * A new event's envelope. Its id is a UUIDv7: ids sort in the order they were made (milliseconds, then a counter),
 * so the key of every consumer's `processed_events` grows at its end instead of landing on a random index page.
 */
export function createEnvelope<T extends object>(
  definition: EventDefinition<T>,
  payload: T,
  context: EnvelopeContext,
): EventEnvelope<T> {
  return {
    eventId: context.eventId ?? uuidv7(),
    type: definition.type,
    schemaVersion: definition.schemaVersion,
    occurredAt: (context.now ?? new Date()).toISOString(),
    correlationId: context.correlationId,
    causationId: context.causationId ?? null,
    key: definition.keyOf(payload),
    payload,
  };
}
