import {
  Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { ALL_EVENTS } from '@owd/events';
import { EventConsumer, type ConsumerSpec } from './event-consumer';
import { EventProducer } from './event-producer';
import { KAFKA_SERVICE_OPTIONS, type KafkaServiceOptions } from './kafka.options';
import { KAFKA_CLIENT } from './kafka.tokens';
import { OutboxRelay } from './outbox-relay';
import { TopicNamer } from './topic-namer';

/**
 * How long a service's start waits for its broker (the producer's connect, a consumer's first try) before it goes on
 * without it: kafkajs retries a connect for tens of seconds, and the pod should answer its probes meanwhile.
 */
const START_WAIT_MS = 5_000;

/** What `promise` gives if it settles within `ms`, else `otherwise` (the promise goes on; it must not reject). */
function settledWithin<T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(otherwise), ms);
    void promise.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/**
 * Owns the service's consumers and outbox relay and their order of shutdown:
 * consumers finish their in-flight events first, then the relay publishes what they wrote, then
 * the producer disconnects. Feature modules register consumers before the application boots.
 */
@Injectable()
export class MessagingService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MessagingService.name);
  private readonly specs: ConsumerSpec[] = [];
  private readonly consumers: EventConsumer[] = [];

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    @Inject(KAFKA_SERVICE_OPTIONS) private readonly options: KafkaServiceOptions,
    private readonly dataSource: DataSource,
    private readonly producer: EventProducer,
    private readonly relay: OutboxRelay,
    private readonly namer: TopicNamer,
    private readonly config: ConfigService,
  ) {}

  consume(spec: ConsumerSpec): void {
    this.specs.push(spec);
  }

  /** Every consumer group the service registered, and whether its consumer has joined it (readiness). */
  consumerGroups(): { group: string; joined: boolean }[] {
    const started = new Map(this.consumers.map((c) => [c.group.group, c.group.joined]));
    return this.specs.map((spec) => ({ group: spec.groupId, joined: started.get(spec.groupId) ?? false }));
  }

  /**
   * Starts the relay and the consumers. A broker that does not answer fails none of it: the start waits for the
   * producer's connect and for each consumer's first try at most `START_WAIT_MS`, then goes on without them. The
   * producer connects at the relay's next send, each consumer keeps trying (EventConsumer.startOrRetry), and the pod
   * answers its probes, not ready, until every consumer has joined its group (docs/operations.md, Health and probes).
   */
  async onApplicationBootstrap(): Promise<void> {
    const connected = this.producer.connect().then(() => true, (err: Error) => {
      this.logger.error({ msg: 'the Kafka producer could not connect at start; the outbox relay connects it at its next send', err: err.message });
      return false;
    });
    const answered = await settledWithin(connected, START_WAIT_MS, false);
    this.relay.start();
    for (const spec of this.specs) {
      const sessionTimeoutMs = spec.sessionTimeoutMs ?? this.config.get<number>('KAFKA_SESSION_TIMEOUT_MS');
      const processedRetentionMs = spec.processedRetentionMs ?? this.config.get<number>('PROCESSED_EVENTS_RETAIN_MS');
      const lingerMs = spec.lingerMs ?? this.config.get<number>('KAFKA_CONSUMER_LINGER_MS');
      const consumer = new EventConsumer(
        this.kafka, this.dataSource, this.producer, this.namer, this.options.schema,
        { ...spec, sessionTimeoutMs, processedRetentionMs, lingerMs }, ALL_EVENTS,
      );
      this.consumers.push(consumer);
      // A broker that answered: the consumer has usually joined when the start goes on, as before.
      const started = consumer.startOrRetry();
      if (answered) await settledWithin(started, START_WAIT_MS, false);
    }
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.logger.log({ msg: 'draining messaging', signal });
    await Promise.all(this.consumers.map((c) => c.stop()));
    await this.relay.stop();
    await this.producer.disconnect();
  }
}
