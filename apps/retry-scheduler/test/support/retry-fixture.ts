import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import {
  createEnvelope, definitionMap, DeliveryAttempted, DeliveryRetryDue, parseEnvelope, TOPICS,
  type DeliveryAttemptedPayload, type DeliveryRetryDuePayload, type EventDefinition, type EventEnvelope,
} from '@owd/events';
import { EventProducer, toMessage, type TopicNamer } from '@owd/kafka';
import { waitFor } from '@owd/testing';

/** A delivery.attempted payload as the dispatcher emits it; retriable first attempt unless overridden. */
export function attempted(overrides: Partial<DeliveryAttemptedPayload> = {}): DeliveryAttemptedPayload {
  return {
    deliveryId: randomUUID(),
    resultId: `res_${randomUUID()}`,
    goalId: randomUUID(),
    revision: 1,
    attempt: 1,
    targetHost: 'receiver.example',
    status: 503,
    durationMs: 40,
    outcome: 'retriable',
    errorClass: null,
    errorMessage: null,
    attemptedAt: new Date().toISOString(),
    nextAttemptAt: null,
    conflictRevision: null,
    final: false,
    ...overrides,
  };
}

export function inMs(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** Publishes delivery.attempted envelopes the way the dispatcher's outbox relay does. */
export class AttemptPublisher {
  private readonly producer: EventProducer;

  constructor(kafka: Kafka, private readonly namer: TopicNamer) {
    this.producer = new EventProducer(kafka, namer);
  }

  envelope(payload: DeliveryAttemptedPayload): EventEnvelope<DeliveryAttemptedPayload> {
    return createEnvelope(DeliveryAttempted, payload, { correlationId: payload.resultId });
  }

  async send(...envelopes: EventEnvelope<DeliveryAttemptedPayload>[]): Promise<void> {
    await this.producer.sendMessages(envelopes.map((e) => toMessage(this.namer, DeliveryAttempted as EventDefinition, e)));
  }

  async publish(payload: DeliveryAttemptedPayload): Promise<EventEnvelope<DeliveryAttemptedPayload>> {
    const envelope = this.envelope(payload);
    await this.send(envelope);
    return envelope;
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }
}

export interface ReceivedRetryDue {
  envelope: EventEnvelope<DeliveryRetryDuePayload>;
  receivedAt: number;
}

/** Reads delivery.retry-due from the test prefix and validates every message against the contract. */
export class RetryDueInbox {
  readonly received: ReceivedRetryDue[] = [];
  readonly invalid: string[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(kafka: Kafka, namer: TopicNamer): Promise<RetryDueInbox> {
    const inbox = new RetryDueInbox(kafka.consumer({ groupId: `test-retry-due-${randomUUID()}` }));
    const definitions = definitionMap([DeliveryRetryDue as EventDefinition]);
    await inbox.consumer.connect();
    await inbox.consumer.subscribe({ topics: [namer.name(TOPICS.DELIVERY_RETRY_DUE)], fromBeginning: true });
    await inbox.consumer.run({
      eachMessage: async ({ message }) => {
        const parsed = parseEnvelope(message.value, definitions);
        if (!parsed.ok) inbox.invalid.push(parsed.reason);
        else inbox.received.push({ envelope: parsed.envelope as EventEnvelope<DeliveryRetryDuePayload>, receivedAt: Date.now() });
      },
    });
    return inbox;
  }

  of(deliveryId: string): ReceivedRetryDue[] {
    return this.received.filter((r) => r.envelope.payload.deliveryId === deliveryId);
  }

  next(deliveryId: string, count = 1): Promise<ReceivedRetryDue[]> {
    return waitFor(() => this.of(deliveryId).length >= count && this.of(deliveryId), { what: `retry-due of ${deliveryId}` });
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }
}

/** Environment of the app under test; set before app.module is first imported (config is validated then). */
export function serviceEnv(databaseUrl: string, brokers: string[], prefix: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_PREFIX: prefix,
    MIGRATE_ON_START: 'true',
    PORT: '3999',
    RETRY_POLL_MS: '250',
    RETRY_JITTER_MS: '0',
    RETRY_BATCH_SIZE: '5',
    LOG_LEVEL: 'warn',
  };
}
