import { Logger } from '@nestjs/common';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { definitionMap, parseEnvelope, type EventDefinition, type EventEnvelope, type TopicName } from '@owd/events';
import type { EventProducer } from './event-producer';
import { messagingMetrics } from './metrics';
import type { TopicNamer } from './topic-namer';

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
  private readonly consumer: Consumer;
  private readonly definitions: Map<string, EventDefinition>;
  private readonly handled: Set<string>;

  constructor(
    kafka: Kafka,
    private readonly dataSource: DataSource,
    private readonly producer: EventProducer,
    private readonly namer: TopicNamer,
    private readonly schema: string,
    private readonly spec: ConsumerSpec,
    allEvents: readonly EventDefinition[],
  ) {
    this.consumer = kafka.consumer({ groupId: namer.group(spec.groupId), allowAutoTopicCreation: false, sessionTimeout: spec.sessionTimeoutMs ?? 30_000, heartbeatInterval: 1_000 });
    this.definitions = definitionMap(allEvents);
    this.handled = new Set(spec.events.map((d) => `${d.type}@${d.schemaVersion}`));
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
    await this.consumer.disconnect();
  }

  /**
   * Messages of one partition in order, each with its own transaction; the offset is committed once for
   * the messages done (a broker round trip per batch, not per message), always after their effects.
   */
  private async processBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    let done: string | undefined;
    try {
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) break;
        await this.process(topic, partition, message);
        resolveOffset(message.offset);
        done = message.offset;
        await heartbeat();
      }
    } finally {
      if (done !== undefined) {
        await this.consumer.commitOffsets([{ topic, partition, offset: (BigInt(done) + 1n).toString() }]);
      }
    }
  }

  private async process(topic: string, partition: number, message: KafkaMessage): Promise<void> {
    const logical = this.namer.logical(topic) as TopicName;
    const parsed = parseEnvelope(message.value, this.definitions);
    if (!parsed.ok) {
      await this.deadLetter(logical, partition, message.offset, message.key, message.value, parsed.reason);
      messagingMetrics.consumed.inc({ topic: logical, type: 'invalid', result: 'dead_lettered' });
    } else if (!this.handled.has(`${parsed.envelope.type}@${parsed.envelope.schemaVersion}`)) {
      messagingMetrics.consumed.inc({ topic: logical, type: parsed.envelope.type, result: 'ignored' });
    } else {
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
    }
  }

  private async deadLetter(
    topic: TopicName, partition: number, offset: string, key: Buffer | null, value: Buffer | null, reason: string,
  ): Promise<void> {
    this.logger.warn({ msg: 'message parked in the dead-letter topic', topic, partition, offset, reason });
    await this.producer.sendMessages([{
      topic: this.namer.deadLetter(topic),
      key: key?.toString() ?? '',
      value: value ?? Buffer.alloc(0),
      headers: {
        'dlq-reason': reason.slice(0, 2000),
        'dlq-source-topic': this.namer.name(topic),
        'dlq-source-partition': String(partition),
        'dlq-source-offset': offset,
        'dlq-consumer-group': this.spec.groupId,
      },
    }]);
  }
}
