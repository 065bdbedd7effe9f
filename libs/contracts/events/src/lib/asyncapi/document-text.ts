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
    '- **Key**: the result id (goal id for goal events), also in the envelope `key`; events of one key stay',
    '  in order on one partition.',
    '- **Topic names** may carry a deployment prefix (`KAFKA_TOPIC_PREFIX`), e.g. `staging.delivery.attempted`.',
    '- **Delivery** is at least once: deduplicate on `eventId`. Producers write through a transactional',
    '  outbox; an event is published only after the change it reports was committed.',
    '- **Validation**: the services validate every message with the classes these schemas are generated from,',
    '  unknown keys refused (`additionalProperties: false`); a message that fails goes to the `<topic>.dlq` twin',
    '  and the partition moves on. Existing fields change only with a new `schemaVersion`; new fields are optional.',
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
