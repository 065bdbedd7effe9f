import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';
import type { EventDefinition } from '../envelope/event-definition';
import { definitionMap, parseEnvelope } from '../envelope/parse-envelope';
import { cloudEventHeaders } from '../envelope/cloud-event-headers';
import { DELIVERY_REASONS } from '../delivery-requested/delivery-requested.event';
import { DeliveryAttempted } from '../delivery-attempted/delivery-attempted.event';
import { IS_NULLABLE } from '../formats/format.decorators';
import { ALL_EVENTS } from '../registry';
import { ALL_TOPICS, deadLetterTopic } from '../topics';
import { buildAsyncApiDocument, channelId, keyField, messageId } from './asyncapi.document';
import type { Json, JsonObject } from './json-schema';
import { TOPIC_ROLES } from './topic-roles';

const root = join(__dirname, '../../../../../..');
const EXPORT = 'node node_modules/tsx/dist/cli.mjs --tsconfig tsconfig.base.json tools/asyncapi/export.ts';
const generated = buildAsyncApiDocument();
const committed = parse(readFileSync(join(root, 'docs/asyncapi.yaml'), 'utf8')) as JsonObject;
const definitions = definitionMap(ALL_EVENTS);

function obj(value: Json | undefined, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value;
}

/** Follows a local `$ref` ("#/a/b") or a plain path through the committed document. */
function at(path: string): JsonObject {
  return path.replace(/^#\//, '').split('/').reduce<JsonObject>((node, part) => obj(node[part], path), committed);
}
const deref = (node: JsonObject) => at(String(node['$ref']));

function messageOf(d: EventDefinition): JsonObject {
  return deref(obj(at(`channels/${channelId(d.topic)}/messages`)[messageId(d)], `message ${d.type} on ${d.topic}`));
}
function payloadSchemaOf(d: EventDefinition): JsonObject {
  const allOf = messageOf(d)['payload'] as JsonObject & { allOf: JsonObject[] };
  return deref(obj(obj(allOf.allOf[1]['properties'], 'envelope properties')['payload'], 'payload'));
}

/** Properties that are always there but may be null (`@IsNullable`). */
function nullableProperties(d: EventDefinition): string[] {
  return getMetadataStorage().getTargetValidationMetadatas(d.payloadClass, '', true, false)
    .filter((rule) => rule.name === IS_NULLABLE).map((rule) => rule.propertyName);
}

/** Property name → optional, as class-validator sees the payload class. */
function validatedProperties(d: EventDefinition): Map<string, boolean> {
  const props = new Map<string, boolean>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(d.payloadClass, '', true, false)) {
    props.set(rule.propertyName, (props.get(rule.propertyName) ?? false) || rule.name === 'isOptional');
  }
  return props;
}

describe('docs/asyncapi.yaml', () => {
  it('is the document generated from the event classes (regenerate it when this fails)', () => {
    if (isDeepStrictEqual(committed, generated)) return;
    try {
      expect(committed).toEqual(generated);
    } catch (err) {
      throw new Error(`docs/asyncapi.yaml is out of date; run: ${EXPORT}\n${(err as Error).message}`);
    }
  });

  it('is an AsyncAPI 3.0 document with a channel and a dead-letter channel per topic', () => {
    expect(committed['asyncapi']).toBe('3.0.0');
    for (const topic of ALL_TOPICS) {
      expect(at(`channels/${channelId(topic)}`)['address']).toBe(topic);
      const dlq = at(`channels/${channelId(deadLetterTopic(topic))}`);
      expect(dlq['address']).toBe(`${topic}.dlq`);
      expect(deref(obj(obj(dlq['messages'], 'dlq messages')['deadLetter'], 'deadLetter'))['name']).toBe('dead-letter');
    }
  });

  it('describes the dead-letter headers the consumers write', () => {
    const headers = obj(at('components/messages/deadLetter')['headers'], 'headers');
    expect(headers['required']).toEqual(['dlq-reason', 'dlq-source-topic', 'dlq-source-partition', 'dlq-source-offset', 'dlq-consumer-group']);
  });

  it('names the producer of every topic as a send operation and each consumer as a receive operation', () => {
    const operations = Object.values(obj(committed['operations'], 'operations')).map((o) => obj(o, 'operation'));
    const services = (channel: string, action: string) => operations
      .filter((o) => o['action'] === action && obj(o['channel'], 'channel')['$ref'] === `#/channels/${channel}`)
      .map((o) => obj((o['tags'] as Json[])[0], 'tag')['name']);
    for (const topic of ALL_TOPICS) {
      const role = TOPIC_ROLES[topic];
      expect(services(channelId(topic), 'send')).toEqual([role.producer]);
      expect(services(channelId(topic), 'receive')).toEqual(role.consumers.map((c) => c.service));
      expect(services(channelId(deadLetterTopic(topic)), 'send')).toEqual(role.consumers.map((c) => c.service));
    }
  });

  it('keeps producers, consumers and keys equal to the topic table of docs/architecture.md', () => {
    const rows = readFileSync(join(root, 'docs/architecture.md'), 'utf8').split('\n').filter((l) => l.startsWith('| `'));
    const table = new Map(rows.map((l) => l.split('|').map((c) => c.trim())).map((c) => [c[1].replace(/`/g, ''), c]));
    for (const topic of ALL_TOPICS) {
      const row = table.get(topic);
      if (!row) throw new Error(`docs/architecture.md has no row for ${topic}`);
      const role = TOPIC_ROLES[topic];
      const consumers = row[4].split(',').map((c) => c.trim());
      expect({ topic, producer: row[3], consumers: consumers.filter((c) => c !== 'anyone'), public: consumers.includes('anyone') })
        .toEqual({ topic, producer: role.producer, consumers: role.consumers.map((c) => c.service), public: role.audience === 'public' });
      const keys = new Set(ALL_EVENTS.filter((e) => e.topic === topic).map((e) => keyField(e).replace(/Id$/, ' id')));
      expect([...keys]).toEqual([row[2]]);
    }
  });
});

describe('what outside consumers read', () => {
  const publicTopics = ALL_TOPICS.filter((t) => TOPIC_ROLES[t].audience === 'public');

  it('names the public topics in the document and in each channel', () => {
    expect(publicTopics).toEqual(['delivery.attempted']);
    expect(String(obj(committed['info'], 'info')['description'])).toContain('Only `delivery.attempted` is for systems outside');
    for (const topic of ALL_TOPICS) {
      expect(at(`channels/${channelId(topic)}`)['description']).toContain(`Audience: ${TOPIC_ROLES[topic].audience}.`);
    }
  });

  it('puts the scoping ids on every public event, and nothing secret', () => {
    for (const d of ALL_EVENTS.filter((e) => publicTopics.includes(e.topic))) {
      const schema = payloadSchemaOf(d);
      expect(schema['required']).toEqual(expect.arrayContaining(['workspaceId', 'goalId', 'resultId']));
      expect(Object.keys(obj(schema['properties'], 'properties')).filter((p) => /secret/i.test(p))).toEqual([]);
    }
  });

  it('says delivery.attempted carries no Send test, and no delivery reason is one (the stream and the document agree)', () => {
    expect(at(`channels/${channelId(DeliveryAttempted.topic)}`)['summary']).toContain('Send test');
    expect(at(`channels/${channelId(DeliveryAttempted.topic)}`)['summary']).toContain('is not on this topic');
    expect(DELIVERY_REASONS).not.toContain('send-test');
  });

  it('names one attempt by (deliveryId, series, attempt): series is required on delivery.attempted', () => {
    const schema = payloadSchemaOf(DeliveryAttempted);
    expect(schema['required']).toEqual(expect.arrayContaining(['deliveryId', 'series', 'attempt']));
    expect(String(obj(obj(schema['properties'], 'properties')['series'], 'series')['description'])).toContain('deduplicate');
  });
});

describe.each(ALL_EVENTS.map((d) => [`${d.type} v${d.schemaVersion}`, d] as const))('the message of %s', (_name, d) => {
  it('is on the channel of its topic, with its type, version and key field', () => {
    const message = messageOf(d);
    expect(message['name']).toBe(d.type);
    const headers = obj(obj(message['headers'], 'headers')['properties'], 'header properties');
    expect(headers['event-type']).toMatchObject({ const: d.type });
    expect(headers['schema-version']).toMatchObject({ const: String(d.schemaVersion) });
    const key = obj(obj(obj(message['bindings'], 'bindings')['kafka'], 'kafka')['key'], 'key');
    expect(key['description']).toContain(`payload.${keyField(d)}`);
  });

  it('lists every property class-validator checks, and the ones without @IsOptional as required', () => {
    const schema = payloadSchemaOf(d);
    const properties = obj(schema['properties'], 'properties');
    const validated = validatedProperties(d);
    expect(Object.keys(properties).sort()).toEqual([...validated.keys()].sort());
    const required = [...validated].filter(([, optional]) => !optional).map(([p]) => p);
    expect([...((schema['required'] as string[] | undefined) ?? [])].sort()).toEqual(required.sort());
    expect(schema['additionalProperties']).toBe(false);
  });
});

describe('message schemas, checked by ajv (JSON Schema draft-07) and by the consumers’ own validation', () => {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  // The document's own top-level fields, so the message schemas inside it compile in strict mode.
  ajv.addVocabulary(Object.keys(committed));
  ajv.addSchema(committed, 'asyncapi.yaml');
  const accepts = (d: EventDefinition, value: JsonObject) => {
    const validate = ajv.getSchema(`asyncapi.yaml#/components/messages/${messageId(d)}/payload`);
    if (!validate) throw new Error(`no payload schema for ${d.type}`);
    return { schema: validate(value), consumer: parseEnvelope(Buffer.from(JSON.stringify(value)), definitions).ok };
  };
  const sampleOf = (d: EventDefinition): JsonObject => structuredClone(obj(obj((messageOf(d)['examples'] as Json[])[0], 'example')['payload'], 'example payload'));
  const withPayload = (envelope: JsonObject, change: (p: JsonObject) => void) => {
    const payload = obj(envelope['payload'], 'payload');
    change(payload);
    return envelope;
  };

  describe.each(ALL_EVENTS.map((d) => [d.type, d] as const))('%s', (_type, d) => {
    it('accepts the documented example (value and headers)', () => {
      const example = obj((messageOf(d)['examples'] as Json[])[0], 'example');
      expect(accepts(d, sampleOf(d))).toEqual({ schema: true, consumer: true });
      const headers = ajv.getSchema(`asyncapi.yaml#/components/messages/${messageId(d)}/headers`);
      expect(headers?.(example['headers'])).toBe(true);
    });

    it('rejects the example without any one required payload field, as the consumers do', () => {
      const required = (payloadSchemaOf(d)['required'] as string[] | undefined) ?? [];
      expect(required.length).toBeGreaterThan(0);
      for (const field of required) {
        const verdict = accepts(d, withPayload(sampleOf(d), (p) => delete p[field]));
        expect({ field, ...verdict }).toEqual({ field, schema: false, consumer: false });
      }
    });

    it('accepts the example with each optional payload field null or absent, as the consumers do', () => {
      const optional = [...validatedProperties(d)].filter(([, opt]) => opt).map(([p]) => p);
      for (const field of optional) {
        expect({ field, ...accepts(d, withPayload(sampleOf(d), (p) => { p[field] = null; })) }).toEqual({ field, schema: true, consumer: true });
        expect({ field, ...accepts(d, withPayload(sampleOf(d), (p) => delete p[field])) }).toEqual({ field, schema: true, consumer: true });
      }
    });

    it('accepts each always-present nullable payload field as null, as the consumers do', () => {
      for (const field of nullableProperties(d)) {
        expect({ field, ...accepts(d, withPayload(sampleOf(d), (p) => { p[field] = null; })) }).toEqual({ field, schema: true, consumer: true });
      }
    });

    it('rejects timestamps not written in UTC with Z, as the consumers do (one format on every topic)', () => {
      const at = String(sampleOf(d)['occurredAt']);
      expect(accepts(d, { ...sampleOf(d), occurredAt: at.replace('Z', '+00:00') })).toEqual({ schema: false, consumer: false });
      expect(accepts(d, { ...sampleOf(d), occurredAt: at.replace('.500Z', 'Z') })).toEqual({ schema: false, consumer: false });
    });

    it('requires the CloudEvents binary-mode headers, mapped from the envelope', () => {
      const message = messageOf(d);
      const example = obj((message['examples'] as Json[])[0], 'example');
      const envelope = obj(example['payload'], 'example payload');
      const expected = cloudEventHeaders(d, envelope as unknown as Parameters<typeof cloudEventHeaders>[1]);
      expect(expected).toMatchObject({
        ce_specversion: '1.0', ce_id: envelope['eventId'], ce_type: d.type, ce_time: envelope['occurredAt'], ce_subject: envelope['key'],
        'content-type': 'application/json',
      });
      expect(obj(message['headers'], 'headers')['required']).toEqual(expect.arrayContaining(Object.keys(expected)));
      expect(example['headers']).toMatchObject(expected);
    });

    it('rejects an unknown payload field and a wrong event type, as the consumers do', () => {
      expect(accepts(d, withPayload(sampleOf(d), (p) => { p['unknownField'] = 1; }))).toEqual({ schema: false, consumer: false });
      expect(accepts(d, { ...sampleOf(d), type: 'no.such-event' })).toEqual({ schema: false, consumer: false });
    });
  });
});
