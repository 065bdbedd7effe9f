import { Logger } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { definitionMap, parseEnvelope, type EventDefinition, type EventEnvelope, type TopicName } from '@owd/events';
import { ConsumerLag } from './consumer-lag';
import type { EventProducer } from './event-producer';
import { messagingMetrics } from './metrics';
import type { TopicNamer } from './topic-namer';
import { eventAttributes, withConsumerSpan } from './trace-context';

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
   * Messages of one partition in order, each with its own transaction; the offset is committed once for
   * the messages done (a broker round trip per batch, not per message), always after their effects.
   */
  private async processBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    const logical = this.namer.logical(topic);
    let done: string | undefined;
    try {
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) break;
        // Before the message: one that hangs in its handler still counts as lag.
        this.lag.set(logical, partition, batch.highWatermark, message.offset);
        await this.process(topic, partition, message);
        resolveOffset(message.offset);
        done = message.offset;
        await heartbeat();
      }
    } finally {
      if (done !== undefined) {
        const next = (BigInt(done) + 1n).toString();
        await this.consumer.commitOffsets([{ topic, partition, offset: next }]);
        this.lag.set(logical, partition, batch.highWatermark, next);
      }
    }
  }

  /** One message under a CONSUMER span (child of the producer's, from its headers) that the handler runs in. */
  private process(topic: string, partition: number, message: KafkaMessage): Promise<void> {
    return withConsumerSpan(topic, partition, message, (span) => this.handleMessage(topic, partition, message, span));
  }

  private async handleMessage(topic: string, partition: number, message: KafkaMessage, span: Span): Promise<void> {
    const logical = this.namer.logical(topic) as TopicName;
    const parsed = parseEnvelope(message.value, this.definitions);
    if (!parsed.ok) {
      await this.deadLetter(logical, partition, message, parsed.reason);
      messagingMetrics.consumed.inc({ topic: logical, type: 'invalid', result: 'dead_lettered' });
      span.setAttribute('owd.consume.result', 'dead_lettered');
    } else if (!this.handled.has(`${parsed.envelope.type}@${parsed.envelope.schemaVersion}`)) {
      messagingMetrics.consumed.inc({ topic: logical, type: parsed.envelope.type, result: 'ignored' });
      span.setAttributes({ ...eventAttributes(parsed.envelope), 'owd.consume.result': 'ignored' });
    } else {
      span.setAttributes(eventAttributes(parsed.envelope));
      const stop = messagingMetrics.handlerSeconds.startTimer({ topic: logical });
      const fresh = await this.dataSource.transaction(async (manager) => {
        const inserted: unknown[] = await manager.query(
          `INSERT INTO "${this.schema}".processed_events (consumer, event_id) VALUES ($1, $2)
           ON CONFLICT DO NOTHING RETURNING event_id`,
          [this.spec.groupId, parsed.envelope.eventId],
        );
        if (inserted.length === 0) return false;
        await this.spec.handle(parsed.envelope, manager, parsed.definition);
        return true;
      });
      stop();
      messagingMetrics.consumed.inc({ topic: logical, type: parsed.envelope.type, result: fresh ? 'processed' : 'duplicate' });
      span.setAttribute('owd.consume.result', fresh ? 'processed' : 'duplicate');
    }
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
