import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { EventEnvelope, TopicName } from '@owd/events';
import { waitFor } from '@owd/testing';

/** Reads a topic from its beginning into memory, so a test can look for the events the API published. */
export class TopicReader {
  readonly envelopes: EventEnvelope[] = [];
  private consumer?: Consumer;

  constructor(private readonly brokers: string[], private readonly prefix: string, private readonly topics: TopicName[]) {}

  async start(): Promise<this> {
    const kafka = new Kafka({ brokers: this.brokers, clientId: 'test-reader', logLevel: logLevel.NOTHING });
    this.consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, heartbeatInterval: 500 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics.map((t) => `${this.prefix}${t}`), fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        if (message.value) this.envelopes.push(JSON.parse(message.value.toString()) as EventEnvelope);
      },
    });
    return this;
  }

  /** Waits until an event of `type` matches `predicate`, and returns it. */
  waitFor<T extends object>(type: string, predicate: (payload: T) => boolean, what = type): Promise<EventEnvelope<T>> {
    return waitFor(() => this.envelopes.find((e) => e.type === type && predicate(e.payload as T)) as EventEnvelope<T> | undefined, { what });
  }

  all<T extends object>(type: string, predicate: (payload: T) => boolean = () => true): EventEnvelope<T>[] {
    return this.envelopes.filter((e) => e.type === type && predicate(e.payload as T)) as EventEnvelope<T>[];
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
