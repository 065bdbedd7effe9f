import { TOPIC_ROLES } from '../asyncapi/topic-roles';
import type { EventDefinition } from './event-definition';
import type { EventEnvelope } from './event-envelope';

export const CLOUDEVENTS_SPEC_VERSION = '1.0';

/** `ce_source` of the events a service publishes (a URI reference, CloudEvents 1.0 §3.1.1). */
export const cloudEventSource = (definition: EventDefinition): string => `/outbound-delivery/${TOPIC_ROLES[definition.topic].producer}`;

/**
 * The CloudEvents 1.0 Kafka protocol binding, binary content mode: the attributes as `ce_` headers, the
 * message value (the whole envelope) is the event data. Each attribute comes from the envelope.
 */
export function cloudEventHeaders(definition: EventDefinition, envelope: EventEnvelope): Record<string, string> {
  return {
    ce_specversion: CLOUDEVENTS_SPEC_VERSION,
    ce_id: envelope.eventId,
    ce_source: cloudEventSource(definition),
    ce_type: envelope.type,
    ce_time: envelope.occurredAt,
    ce_subject: envelope.key,
    'content-type': 'application/json',
  };
}
