import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { ALL_EVENTS, definitionMap, parseEnvelope, type EventEnvelope, type TopicName } from '@owd/events';
import { waitFor } from './wait-for';

export interface ReadMessage {
  /** Logical topic name (without the test prefix). */
  topic: string;
  raw: string;
  key: string;
  /** The message headers as text (a repeated header: its last value). */
  headers: Record<string, string>;
  /** The validated envelope; undefined when the message broke its contract (see `invalid`). */
  envelope?: EventEnvelope;
  invalid?: string;
  receivedAt: number;
  /** The record's Kafka timestamp (ms): when its producer handed it to Kafka, as the topics keep CreateTime. */
  timestamp: number;
}

export interface TopicReaderOptions {
  /**
   * Fetch lazily: the broker holds each fetch up to this long to gather up to 1 MiB, so reading costs the broker and
   * the reader a few fetches a second instead of one per batch the producers write. For a reader that times
   * records by their `timestamp` (the bench), not by when it got them. Unset: every record is read at once (tests).
   */
  fetchWaitMs?: number;
}

const definitions = definitionMap(ALL_EVENTS);

/** What a lazy reader's fetch waits to gather (`fetchWaitMs`). */
const LAZY_FETCH_BYTES = 1024 * 1024;

/**
 * Reads topics of a test prefix from their beginning into memory, validating every message against
 * its event contract, so a test can wait for (and inspect) what the services published.
 */
export class TopicReader {
  readonly messages: ReadMessage[] = [];
  private consumer?: Consumer;

  constructor(
    private readonly brokers: string[], private readonly prefix: string, private readonly topics: readonly TopicName[],
    private readonly options: TopicReaderOptions = {},
  ) {}

  /** The valid envelopes read so far, oldest first. */
  get envelopes(): EventEnvelope[] {
    return this.messages.flatMap((m) => (m.envelope ? [m.envelope] : []));
  }

  async start(): Promise<this> {
    const kafka = new Kafka({ brokers: this.brokers, clientId: 'test-reader', logLevel: logLevel.NOTHING });
    const { fetchWaitMs } = this.options;
    this.consumer = kafka.consumer({
      groupId: `test-reader-${randomUUID()}`, heartbeatInterval: 500,
      ...(fetchWaitMs === undefined ? {} : { maxWaitTimeInMs: fetchWaitMs, minBytes: LAZY_FETCH_BYTES }),
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics.map((t) => `${this.prefix}${t}`), fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ topic, message }) => {
        const raw = message.value?.toString() ?? '';
        const parsed = parseEnvelope(message.value, definitions);
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).flatMap(([name, value]) => {
          const last = Array.isArray(value) ? value[value.length - 1] : value;
          return last === undefined ? [] : [[name, last.toString()]];
        }));
        this.messages.push({
          topic: topic.slice(this.prefix.length), raw, key: message.key?.toString() ?? '', headers, receivedAt: Date.now(),
          timestamp: Number(message.timestamp),
          ...(parsed.ok ? { envelope: parsed.envelope } : { invalid: parsed.reason }),
        });
      },
    });
    return this;
  }

  /** Waits until an event of `type` matches `predicate`, and returns it. */
  waitFor<T extends object>(type: string, predicate: (payload: T) => boolean = () => true, what = type): Promise<EventEnvelope<T>> {
    return waitFor(() => this.all(type, predicate)[0], { what });
  }

  all<T extends object>(type: string, predicate: (payload: T) => boolean = () => true): EventEnvelope<T>[] {
    return this.envelopes.filter((e) => e.type === type && predicate(e.payload as T)) as EventEnvelope<T>[];
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
