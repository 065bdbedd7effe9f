import { cloudEventHeaders, cloudEventSource } from '../envelope/cloud-event-headers';
import { createEnvelope } from '../envelope/create-envelope';
import type { EventDefinition } from '../envelope/event-definition';
import { EventEnvelope } from '../envelope/event-envelope';
import { ALL_EVENTS } from '../registry';
import { ALL_TOPICS, deadLetterTopic, type TopicName } from '../topics';
import { EVENT_EXAMPLES } from './event-examples';
import { FIELD_DESCRIPTIONS } from './field-descriptions';
import { SchemaComponents, type JsonObject } from './json-schema';
import { CLOUDEVENT_HEADERS, DEAD_LETTER_MESSAGE, DOCUMENT_INFO, KAFKA_BINDING_VERSION, SERVERS, TRACE_HEADERS } from './document-text';
import { EVENT_SUMMARIES, TOPIC_ROLES, type ServiceName } from './topic-roles';

const camel = (name: string) => name.replace(/[.\-_](\w)/g, (_m, c: string) => c.toUpperCase());
const pascal = (name: string) => camel(name).replace(/^\w/, (c) => c.toUpperCase());

export const channelId = (topic: string): string => camel(topic);
export const messageId = (d: EventDefinition): string => `${camel(d.type)}V${d.schemaVersion}`;

/** The payload field `keyOf` returns, found by letting it read a probe that records each field read. */
export function keyField(definition: EventDefinition): string {
  const read: string[] = [];
  const probe = new Proxy({}, {
    get: (_target, p) => {
      read.push(String(p));
      return `<${String(p)}>`;
    },
  });
  const key = definition.keyOf(probe);
  if (read.length !== 1 || key !== `<${read[0]}>`) throw new Error(`asyncapi: the key of ${definition.type} is not one payload field`);
  return read[0];
}

const keyLabel = (field: string) => `\`payload.${field}\` (the ${field.replace(/Id$/, ' id')})`;

function example(definition: EventDefinition, index: number): JsonObject[] {
  const sample = EVENT_EXAMPLES.find((e) => e.definition === definition);
  if (!sample) throw new Error(`asyncapi: no example for ${definition.type}; add one to event-examples.ts`);
  const eventId = `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
  const key = definition.keyOf(sample.payload);
  const envelope = createEnvelope(definition, sample.payload, { correlationId: key, eventId, now: new Date('2026-11-21T10:00:00.500Z') });
  const headers = {
    'event-type': definition.type, 'schema-version': String(definition.schemaVersion), 'event-id': eventId,
    ...cloudEventHeaders(definition, envelope),
  };
  return [{ name: 'example', headers, payload: JSON.parse(JSON.stringify(envelope)) as JsonObject }];
}

function eventMessage(definition: EventDefinition, index: number, components: SchemaComponents, envelope: JsonObject): JsonObject {
  const summary = EVENT_SUMMARIES[definition.type];
  if (!summary) throw new Error(`asyncapi: no summary for ${definition.type}; add one to topic-roles.ts`);
  const field = keyField(definition);
  const payloadClass = definition.payloadClass;
  return {
    name: definition.type,
    title: `${definition.type} v${definition.schemaVersion}`,
    summary,
    contentType: 'application/json',
    headers: {
      type: 'object',
      required: ['event-type', 'schema-version', 'event-id', ...Object.keys(CLOUDEVENT_HEADERS)],
      properties: {
        'event-type': { type: 'string', const: definition.type },
        'schema-version': { type: 'string', const: String(definition.schemaVersion) },
        'event-id': { description: 'The envelope eventId.', type: 'string', format: 'uuid' },
        ...CLOUDEVENT_HEADERS,
        ce_source: { ...CLOUDEVENT_HEADERS['ce_source'] as JsonObject, const: cloudEventSource(definition) },
        ce_type: { ...CLOUDEVENT_HEADERS['ce_type'] as JsonObject, const: definition.type },
        ...TRACE_HEADERS,
      },
    },
    payload: {
      allOf: [
        envelope,
        {
          type: 'object',
          properties: {
            type: { const: definition.type },
            schemaVersion: { const: definition.schemaVersion },
            key: { description: `Equal to ${keyLabel(field)}.` },
            payload: components.ref(payloadClass, true, FIELD_DESCRIPTIONS[payloadClass.name]),
          },
        },
      ],
    },
    correlationId: { description: 'Shared by every event of one chain.', location: '$message.payload#/correlationId' },
    bindings: {
      kafka: {
        key: { type: 'string', description: `${keyLabel(field)}: events of one ${field.replace(/Id$/, '')} keep their order.` },
        bindingVersion: KAFKA_BINDING_VERSION,
      },
    },
    examples: example(definition, index),
  };
}

function operation(service: ServiceName, action: 'send' | 'receive', channel: string, messages: readonly string[], title: string): JsonObject {
  return {
    action,
    channel: { $ref: `#/channels/${channel}` },
    title,
    tags: [{ name: service }],
    messages: messages.map((m) => ({ $ref: `#/channels/${channel}/messages/${m}` })),
  };
}

function topicOperations(topic: TopicName, events: readonly EventDefinition[]): JsonObject {
  const role = TOPIC_ROLES[topic];
  const id = channelId(topic);
  const dlq = channelId(deadLetterTopic(topic));
  const ops: JsonObject = {
    [`${camel(role.producer)}Send${pascal(id)}`]: operation(role.producer, 'send', id, events.map(messageId), `${role.producer} publishes ${topic}`),
  };
  for (const consumer of role.consumers) {
    const handled = events.filter((e) => !consumer.events || consumer.events.includes(e.type));
    if (consumer.events && handled.length !== consumer.events.length) throw new Error(`asyncapi: ${consumer.service} consumes an event not on ${topic}`);
    ops[`${camel(consumer.service)}Receive${pascal(id)}`] = operation(consumer.service, 'receive', id, handled.map(messageId), `${consumer.service} consumes ${topic}`);
    ops[`${camel(consumer.service)}Send${pascal(dlq)}`] = operation(consumer.service, 'send', dlq, ['deadLetter'], `${consumer.service} parks invalid ${topic} messages`);
  }
  return ops;
}

function topicChannels(topic: TopicName, events: readonly EventDefinition[]): JsonObject {
  const role = TOPIC_ROLES[topic];
  const consumers = role.consumers.map((c) => (c.events ? `${c.service} (${c.events.join(', ')})` : c.service));
  const keys = [...new Set(events.map((e) => keyLabel(keyField(e))))];
  const binding = (address: string) => ({ kafka: { topic: address, bindingVersion: KAFKA_BINDING_VERSION } });
  const dlq = deadLetterTopic(topic);
  return {
    [channelId(topic)]: {
      address: topic,
      title: topic,
      summary: role.summary,
      description: [
        `Audience: ${role.audience}.`,
        `Producer: ${role.producer}.`,
        `Consumers: ${consumers.join(', ')}${role.audience === 'public' ? ', and any system outside' : ''}.`,
        `Message key: ${keys.join(' or ')}.`,
      ].join('\n'),
      messages: Object.fromEntries(events.map((e) => [messageId(e), { $ref: `#/components/messages/${messageId(e)}` }])),
      bindings: binding(topic),
    },
    [channelId(dlq)]: {
      address: dlq,
      title: dlq,
      summary: `Dead-letter twin of ${topic}: messages a consumer of ${topic} could not parse or validate.`,
      description: `Written by ${role.consumers.map((c) => c.service).join(', ')} (one copy per rejecting consumer group). No service reads it; operators do.`,
      messages: { deadLetter: { $ref: '#/components/messages/deadLetter' } },
      bindings: binding(dlq),
    },
  };
}

/** The AsyncAPI 3.0 document of every topic, built from the event classes so it cannot drift from them. */
export function buildAsyncApiDocument(): JsonObject {
  const components = new SchemaComponents();
  const envelope = components.ref(EventEnvelope, false, FIELD_DESCRIPTIONS['EventEnvelope']);
  const messages: JsonObject = {};
  let channels: JsonObject = {};
  let operations: JsonObject = {};
  for (const topic of ALL_TOPICS) {
    const events = ALL_EVENTS.filter((e) => e.topic === topic);
    for (const definition of events) messages[messageId(definition)] = eventMessage(definition, ALL_EVENTS.indexOf(definition), components, envelope);
    channels = { ...channels, ...topicChannels(topic, events) };
    operations = { ...operations, ...topicOperations(topic, events) };
  }
  messages['deadLetter'] = DEAD_LETTER_MESSAGE;
  return {
    asyncapi: '3.0.0',
    info: DOCUMENT_INFO,
    defaultContentType: 'application/json',
    servers: SERVERS,
    channels,
    operations,
    components: { schemas: components.schemas, messages },
  };
}
