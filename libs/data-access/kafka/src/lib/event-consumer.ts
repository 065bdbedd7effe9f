import { Logger } from '@nestjs/common';
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { definitionMap, parseEnvelope, type EventDefinition, type EventEnvelope, type TopicName } from '@owd/events';
import { ConsumerLag } from './consumer-lag';
import type { EventProducer } from './event-producer';
import { messagingMetrics } from './metrics';
import type { TopicNamer } from './topic-namer';
import { eventAttributes, withConsumerSpan } from './trace-context';

/** Most messages of one partition handled in one database transaction. */
const CHUNK_SIZE = 100;

/** Kafka headers as strings; a repeated header keeps its first value. */
function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) text[name] = first.toString();
  }
  return text;
}

export type EventHandler = (envelope: EventEnvelope, manager: EntityManager, definition: EventDefinition) => Promise<void>;

export interface ConsumerSpec {
  /** Consumer group, unique per service and purpose (e.g. `dispatcher.requests`). */
  groupId: string;
  /** Event types this consumer handles; other types on the same topics are skipped and committed. */
  events: readonly EventDefinition[];
  handle: EventHandler;
  partitionsConsumedConcurrently?: number;
  /** Start of a new group: true reads the topics' history (the default, so no event is missed). */
  fromBeginning?: boolean;
  /** How long the group waits for a silent member before handing its partitions to another. */
  sessionTimeoutMs?: number;
}

/**
 * Runs one consumer group with the delivery rules of the system:
 * auto-commit off; the handler's effect and the event id are committed in one database transaction
 * (so a redelivered event has no second effect); the offset is committed only after that;
 * a message that fails validation goes to `<topic>.dlq` with its reason and the partition moves on.
 */
export class EventConsumer {
  private readonly logger = new Logger(EventConsumer.name);
  private consumer: Consumer;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly definitions: Map<string, EventDefinition>;
  private readonly handled: Set<string>;
  private readonly lag: ConsumerLag;

  constructor(
    private readonly kafka: Kafka,
    private readonly dataSource: DataSource,
    private readonly producer: EventProducer,
    private readonly namer: TopicNamer,
    private readonly schema: string,
    private readonly spec: ConsumerSpec,
    allEvents: readonly EventDefinition[],
  ) {
    this.definitions = definitionMap(allEvents);
    this.handled = new Set(spec.events.map((d) => `${d.type}@${d.schemaVersion}`));
    this.lag = new ConsumerLag(spec.groupId);
    this.consumer = this.createConsumer();
  }

  private createConsumer(): Consumer {
    const consumer = this.kafka.consumer({
      groupId: this.namer.group(this.spec.groupId), allowAutoTopicCreation: false,
      sessionTimeout: this.spec.sessionTimeoutMs ?? 30_000, heartbeatInterval: 1_000,
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.lag.retain(Object.fromEntries(
      Object.entries(payload.memberAssignment).map(([topic, partitions]) => [this.namer.logical(topic), partitions]))));
    // kafkajs restarts a crashed consumer only for errors it deems retriable. After a broker restart a
    // commit can fail with "the coordinator is not aware of this member", which it does not: the consumer
    // would stay down for good while the service looks healthy. Such a crash is restarted here.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && !this.stopping) this.scheduleRestart(payload.error, 1_000);
    });
    return consumer;
  }

  private scheduleRestart(cause: Error, delayMs: number): void {
    this.logger.error({ msg: 'consumer crashed; it is started again', group: this.spec.groupId, err: cause.message, inMs: delayMs });
    messagingMetrics.consumerRestarts.inc({ group: this.spec.groupId });
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      this.consumer = this.createConsumer();
      this.start().catch((err: Error) => this.scheduleRestart(err, Math.min(delayMs * 2, 30_000)));
    }, delayMs);
  }

  async start(): Promise<void> {
    const topics = [...new Set(this.spec.events.map((d) => this.namer.name(d.topic)))];
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: this.spec.fromBeginning ?? true });
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.spec.partitionsConsumedConcurrently ?? 3,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.processBatch(payload),
    });
  }

  /** Waits for the messages in flight to finish (and commit), then leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    await this.consumer.disconnect();
    this.lag.clear();
  }

  /**
   * Messages of one partition in order. A fetched batch is handled in chunks, each chunk in ONE database
   * transaction (every message's effect and its event id), so a busy partition pays one commit per chunk
   * instead of one per message; the offset is committed after the chunk's transaction, never before.
   * When a chunk fails, its messages are handled again one transaction each, so a message that keeps
   * failing stops its partition exactly where it is, and the ones before it are kept.
   */
  private async processBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const logical = this.namer.logical(topic);
    const commit = async (message: KafkaMessage): Promise<void> => {
      resolveOffset(message.offset);
      const next = (BigInt(message.offset) + 1n).toString();
      await this.consumer.commitOffsets([{ topic, partition, offset: next }]);
      this.lag.set(logical, partition, batch.highWatermark, next);
      await heartbeat();
    };
    for (let from = 0; from < batch.messages.length; from += CHUNK_SIZE) {
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(from, from + CHUNK_SIZE);
      // Before the chunk: a message that hangs in its handler still counts as lag.
      this.lag.set(logical, partition, batch.highWatermark, chunk[0].offset);
      try {
        await this.processChunk(topic, partition, chunk);
      } catch (err) {
        this.logger.warn({ msg: 'a chunk of messages failed; handling them one by one', topic: logical, partition, from: chunk[0].offset, err });
        for (const message of chunk) {
          if (!isRunning() || isStale()) return;
          await this.processChunk(topic, partition, [message]);
          await commit(message);
        }
        continue;
      }
      await commit(chunk[chunk.length - 1]);
    }
  }

  /**
   * One transaction for the chunk: each message under its CONSUMER span (child of the producer's, from its
   * headers), its event id recorded, its handler run. Messages that break their contract are parked after
   * the commit (a rolled-back chunk parks nothing), and counted only then, like the others.
   */
  private async processChunk(topic: string, partition: number, messages: KafkaMessage[]): Promise<void> {
    const logical = this.namer.logical(topic) as TopicName;
    const counted: { type: string; result: string }[] = [];
    const invalid: { message: KafkaMessage; reason: string }[] = [];
    const parsed = messages.map((message) => ({ message, parsed: parseEnvelope(message.value, this.definitions) }));
    const handled = parsed.filter((p) => p.parsed.ok && this.handled.has(`${p.parsed.envelope.type}@${p.parsed.envelope.schemaVersion}`));
    const run = async (manager?: EntityManager): Promise<void> => {
      for (const { message, parsed: result } of parsed) {
        await withConsumerSpan(topic, partition, message, async (span) => {
          if (!result.ok) {
            invalid.push({ message, reason: result.reason });
            span.setAttribute('owd.consume.result', 'dead_lettered');
          } else if (!manager || !this.handled.has(`${result.envelope.type}@${result.envelope.schemaVersion}`)) {
            counted.push({ type: result.envelope.type, result: 'ignored' });
            span.setAttributes({ ...eventAttributes(result.envelope), 'owd.consume.result': 'ignored' });
          } else {
            span.setAttributes(eventAttributes(result.envelope));
            const fresh = await this.handleOne(logical, manager, result.envelope, result.definition);
            counted.push({ type: result.envelope.type, result: fresh ? 'processed' : 'duplicate' });
            span.setAttribute('owd.consume.result', fresh ? 'processed' : 'duplicate');
          }
        });
      }
    };
    // A chunk of messages this consumer only skips or parks needs no transaction.
    await (handled.length > 0 ? this.dataSource.transaction((manager) => run(manager)) : run());
    for (const { message, reason } of invalid) {
      await this.deadLetter(logical, partition, message, reason);
      messagingMetrics.consumed.inc({ topic: logical, type: 'invalid', result: 'dead_lettered' });
    }
    for (const c of counted) messagingMetrics.consumed.inc({ topic: logical, ...c });
  }

  /** Records the event id (false when it was handled before: no second effect) and runs the handler. */
  private async handleOne(topic: TopicName, manager: EntityManager, envelope: EventEnvelope, definition: EventDefinition): Promise<boolean> {
    const stop = messagingMetrics.handlerSeconds.startTimer({ topic });
    const inserted: unknown[] = await manager.query(
      `INSERT INTO "${this.schema}".processed_events (consumer, event_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [this.spec.groupId, envelope.eventId],
    );
    if (inserted.length > 0) await this.spec.handle(envelope, manager, definition);
    stop();
    return inserted.length > 0;
  }

  /** Parks the message as it came (key, value and headers, trace context included) with the reason. */
  private async deadLetter(topic: TopicName, partition: number, message: KafkaMessage, reason: string): Promise<void> {
    const { offset, key, value } = message;
    this.logger.warn({ msg: 'message parked in the dead-letter topic', topic, partition, offset, reason });
    await this.producer.sendMessages([{
      topic: this.namer.deadLetter(topic),
      key: key?.toString() ?? '',
      value: value ?? Buffer.alloc(0),
      headers: {
        ...textHeaders(message.headers),
        'dlq-reason': reason.slice(0, 2000),
        'dlq-source-topic': this.namer.name(topic),
        'dlq-source-partition': String(partition),
        'dlq-source-offset': offset,
        'dlq-consumer-group': this.spec.groupId,
      },
    }]);
  }
}
