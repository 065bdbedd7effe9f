import { CLOUDEVENTS_SPEC_VERSION } from '../envelope/cloud-event-headers';
import type { JsonObject } from './json-schema';

export const KAFKA_BINDING_VERSION = '0.5.0';

/** The prose of the document: how every topic behaves, which no single class can say. */
export const DOCUMENT_INFO: JsonObject = {
  title: 'Outbound webhook delivery: Kafka events',
  version: '1.0.0',
  description: [
    'Every Kafka topic of the outbound webhook delivery services, generated from the event classes in',
    '`libs/contracts/events` by `tools/asyncapi/export.ts` (do not edit by hand; see docs/architecture.md).',
    '',
    '- **Value**: a JSON envelope (`EventEnvelope`) whose `payload` depends on `type` and `schemaVersion`.',
    '- **Headers**: `event-type`, `schema-version` and `event-id` repeat the envelope, so a consumer can',
    '  skip event types it does not handle without parsing the value. While tracing is on, `traceparent` and',
    '  `tracestate` carry the W3C trace context of the result\'s trace (docs/operations.md, Tracing).',
    '- **CloudEvents**: every message also carries the CloudEvents 1.0 Kafka binding in binary content mode:',
    '  `ce_specversion` (`1.0`), `ce_id` (= `eventId`), `ce_source` (`/outbound-delivery/<producing service>`),',
    '  `ce_type` (= `type`), `ce_time` (= `occurredAt`), `ce_subject` (= `key`) and `content-type` (`application/json`);',
    '  the CloudEvent data is the whole message value (the envelope). Any CloudEvents SDK reads them.',
    '- **Key**: the result id (goal id for goal events), also in the envelope `key`; events of one key stay',
    '  in order on one partition.',
    '- **Topic names** may carry a deployment prefix (`KAFKA_TOPIC_PREFIX`), e.g. `staging.delivery.attempted`.',
    '- **Timestamps** in envelopes and payloads are UTC with milliseconds and `Z` (`2026-11-21T10:00:00.000Z`).',
    '- **Always there**: a payload field listed as required is on every message; `null` among its types means it',
    '  can be null, never absent.',
    '- **Delivery** is at least once: deduplicate on `eventId`. Producers write through a transactional',
    '  outbox; an event is published only after the change it reports was committed.',
    '- **Validation**: the services validate every message with the classes these schemas are generated from,',
    '  unknown keys refused (`additionalProperties: false`); a message that fails goes to the `<topic>.dlq` twin',
    '  and the partition moves on. Existing fields change only with a new `schemaVersion`; new fields are optional.',
    '',
    '**Audience.** Only `delivery.attempted` is for systems outside these services (each channel says its audience):',
    'it carries `workspaceId` and `goalId` to scope by, and never a secret. The other topics are internal: they may',
    'change with the services, and `goal.changed` carries a sealed secret an outside system has no business reading.',
    'On `delivery.attempted`, one attempt is `(deliveryId, series, attempt)`: a manual retry starts a new `series` at',
    'attempt 1 under the same `deliveryId`. Send test is not on it: it answers in the HTTP response only.',
  ].join('\n'),
};

export const SERVERS: JsonObject = {
  kafka: {
    host: '{brokers}',
    protocol: 'kafka',
    description: "The deployment's Kafka cluster.",
    variables: { brokers: { description: 'A bootstrap broker, host:port (the services read KAFKA_BROKERS).' } },
  },
};

const text = (description: string): JsonObject => ({ type: 'string', description });

/** Optional on every message: present while the producing service has tracing on. */
export const TRACE_HEADERS: JsonObject = {
  traceparent: {
    ...text('W3C trace context: the trace this event belongs to and the span that published it (`00-<trace id>-<span id>-<flags>`).'),
    pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
  },
  tracestate: text('W3C trace state that goes with `traceparent` (vendor entries), when there is any.'),
};

/** CloudEvents 1.0 Kafka protocol binding, binary content mode: on every message (envelope/cloud-event-headers.ts). */
export const CLOUDEVENT_HEADERS: JsonObject = {
  ce_specversion: { ...text('CloudEvents spec version.'), const: CLOUDEVENTS_SPEC_VERSION },
  ce_id: { ...text('CloudEvents id: the envelope `eventId`.'), format: 'uuid' },
  ce_source: text('CloudEvents source: `/outbound-delivery/<producing service>`.'),
  ce_type: text('CloudEvents type: the envelope `type`.'),
  ce_time: { ...text('CloudEvents time: the envelope `occurredAt`.'), format: 'date-time' },
  ce_subject: text('CloudEvents subject: the envelope `key` (result id, or goal id for goal events).'),
  'content-type': { ...text('Media type of the value (the CloudEvent data): the JSON envelope.'), const: 'application/json' },
};

/** A message parked by a consumer: the original bytes, with why and where from in its headers. */
export const DEAD_LETTER_MESSAGE: JsonObject = {
  name: 'dead-letter',
  title: 'Parked message',
  summary: 'A message of the source topic that a consumer could not parse or validate.',
  contentType: 'application/octet-stream',
  headers: {
    type: 'object',
    required: ['dlq-reason', 'dlq-source-topic', 'dlq-source-partition', 'dlq-source-offset', 'dlq-consumer-group'],
    properties: {
      'dlq-reason': text('Why it was rejected (at most 2000 characters), e.g. `payload.attempt: attempt must not be greater than 3`.'),
      'dlq-source-topic': text('The topic it was read from, with the deployment prefix.'),
      'dlq-source-partition': text('The partition it was read from (decimal).'),
      'dlq-source-offset': text('Its offset in that partition (decimal).'),
      'dlq-consumer-group': text('The consumer group that rejected it (without the deployment prefix).'),
    },
  },
  payload: {
    description: 'The original message value, byte for byte (it may not be JSON; that can be why it was parked). The original headers are kept beside the ones above, `traceparent` included, so the parked message stays in its trace.',
  },
  bindings: {
    kafka: { key: text('The original message key (empty when it had none).'), bindingVersion: KAFKA_BINDING_VERSION },
  },
};
