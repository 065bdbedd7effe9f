import type { Span } from '@opentelemetry/api';
import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import { cloudEventHeaders, createEnvelope, type EnvelopeContext, type EventDefinition, type EventEnvelope } from '@owd/events';
import { countKafkaRequests } from './metrics';
import type { TopicNamer } from './topic-namer';
import { recordSpanError, startPublishSpan } from './trace-context';

export interface OutgoingMessage {
  topic: string;
  key: string;
  value: Buffer | string;
  headers: Record<string, string>;
}

/** Serialises an envelope the same way for the outbox and for direct sends, with the CloudEvents binary-mode headers. */
export function toMessage(namer: TopicNamer, definition: EventDefinition, envelope: EventEnvelope): OutgoingMessage {
  return {
    topic: namer.name(definition.topic),
    key: envelope.key,
    value: JSON.stringify(envelope),
    headers: {
      'event-type': envelope.type, 'schema-version': String(envelope.schemaVersion), 'event-id': envelope.eventId,
      ...cloudEventHeaders(definition, envelope),
    },
  };
}

/**
 * Most bytes of keys, values and headers one produce request carries. A broker refuses a partition's record batch
 * larger than its `message.max.bytes` (1 MiB by default) as a whole, and an outbox relay would then send the same rows
 * again and fail again for ever: a backlog of one goal's deliveries (~6 KB each), read 500 at a time, is ~3 MB for one
 * partition. A larger send goes as several requests, one after the other, so the order within a partition holds.
 */
export const SEND_MAX_BYTES = 512 * 1024;

const messageBytes = (m: OutgoingMessage): number => {
  let bytes = Buffer.byteLength(m.key) + (typeof m.value === 'string' ? Buffer.byteLength(m.value) : m.value.length);
  for (const name in m.headers) bytes += name.length + Buffer.byteLength(m.headers[name]);
  return bytes;
};

/**
 * The one producer of a service. Idempotent (acks=all, retries by the client) and every send
 * returns a promise that rejects when the broker did not acknowledge.
 */
export class EventProducer {
  private readonly producer: Producer;
  private connected?: Promise<void>;

  constructor(kafka: Kafka, private readonly namer: TopicNamer) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    countKafkaRequests(this.producer);
  }

  /** Connects once; after a failed try (a broker not answering yet) the next call tries again. */
  connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((err: unknown) => {
      this.connected = undefined;
      throw err;
    });
    return this.connected;
  }

  async emit<T extends object>(definition: EventDefinition<T>, payload: T, context: EnvelopeContext): Promise<EventEnvelope<T>> {
    const envelope = createEnvelope(definition, payload, context);
    await this.sendMessages([toMessage(this.namer, definition as EventDefinition, envelope)]);
    return envelope;
  }

  /**
   * Sends in order; messages of one topic keep their relative order. Each is sent under a PRODUCER span
   * whose context replaces the `traceparent` it carried, so the consumer's span is that span's child. Messages of
   * more than SEND_MAX_BYTES go as several requests in turn; if one fails, those before it were sent.
   */
  async sendMessages(messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.connect();
    let first = 0;
    let bytes = 0;
    for (let i = 0; i < messages.length; i++) {
      const size = messageBytes(messages[i]);
      if (i > first && bytes + size > SEND_MAX_BYTES) {
        await this.sendRequest(messages, first, i);
        first = i;
        bytes = 0;
      }
      bytes += size;
    }
    await this.sendRequest(messages, first, messages.length);
  }

  /** `messages[from]` … `messages[to - 1]` in one produce request. */
  private async sendRequest(messages: readonly OutgoingMessage[], from: number, to: number): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    const spans: Span[] = [];
    for (let i = from; i < to; i++) {
      const m = messages[i];
      const list = byTopic.get(m.topic) ?? [];
      const { span, headers } = startPublishSpan(m.topic, m.key, m.headers);
      spans.push(span);
      list.push({ key: m.key, value: m.value, headers });
      byTopic.set(m.topic, list);
    }
    try {
      await this.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, msgs]) => ({ topic, messages: msgs })),
      });
    } catch (err) {
      for (const span of spans) recordSpanError(span, err);
      throw err;
    } finally {
      for (const span of spans) span.end();
    }
  }

  async disconnect(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
    this.connected = undefined;
  }
}
