import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import {
  createEnvelope, DeliveryAttempted, DeliveryRetryDue, TOPICS,
  type DeliveryAttemptedPayload, type DeliveryRetryDuePayload, type EventDefinition, type EventEnvelope,
} from '@owd/events';
import { EventProducer, toMessage, type TopicNamer } from '@owd/kafka';
import { TopicReader, waitFor } from '@owd/testing';
import { Clock } from '../../src/app/timers/clock.provider';

/** A delivery.attempted payload as the dispatcher emits it; retriable first attempt unless overridden. */
export function attempted(overrides: Partial<DeliveryAttemptedPayload> = {}): DeliveryAttemptedPayload {
  return {
    deliveryId: randomUUID(),
    resultId: `res_${randomUUID()}`,
    goalId: randomUUID(),
    workspaceId: randomUUID(),
    revision: 1,
    series: 1,
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

/** The wall clock, moved forward when the test says: a due time passes at a known point, never while the test waits. */
export class ShiftedClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  skip(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
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

/** delivery.retry-due as read from the test prefix, every message validated against the contract. */
export class RetryDueInbox {
  private constructor(private readonly reader: TopicReader) {}

  static async start(brokers: string[], prefix: string): Promise<RetryDueInbox> {
    return new RetryDueInbox(await new TopicReader(brokers, prefix, [TOPICS.DELIVERY_RETRY_DUE]).start());
  }

  get received(): ReceivedRetryDue[] {
    return this.reader.messages.flatMap((m) => (m.envelope?.type === DeliveryRetryDue.type
      ? [{ envelope: m.envelope as EventEnvelope<DeliveryRetryDuePayload>, receivedAt: m.receivedAt }] : []));
  }

  get invalid(): string[] {
    return this.reader.messages.flatMap((m) => (m.invalid ? [m.invalid] : []));
  }

  of(deliveryId: string): ReceivedRetryDue[] {
    return this.received.filter((r) => r.envelope.payload.deliveryId === deliveryId);
  }

  next(deliveryId: string, count = 1): Promise<ReceivedRetryDue[]> {
    return waitFor(() => this.of(deliveryId).length >= count && this.of(deliveryId), { what: `retry-due of ${deliveryId}` });
  }

  stop(): Promise<void> {
    return this.reader.stop();
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
