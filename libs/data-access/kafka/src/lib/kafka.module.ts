import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TerminusModule } from '@nestjs/terminus';
import type { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { createKafka } from './kafka-client';
import { KafkaHealthIndicator } from './kafka.health';
import { KAFKA_SERVICE_OPTIONS, type KafkaServiceOptions } from './kafka.options';
import { KAFKA_CLIENT } from './kafka.tokens';
import { EventProducer } from './event-producer';
import { MessagingService } from './messaging.service';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { TopicNamer } from './topic-namer';

/** Kafka for one service: client, producer, outbox + relay, consumers and health. Reads KAFKA_* config. */
@Module({})
export class KafkaModule {
  static forService(options: KafkaServiceOptions): DynamicModule {
    return {
      module: KafkaModule,
      global: true,
      imports: [TerminusModule],
      providers: [
        { provide: KAFKA_SERVICE_OPTIONS, useValue: options },
        {
          provide: KAFKA_CLIENT,
          inject: [ConfigService],
          useFactory: (config: ConfigService) =>
            createKafka({
              brokers: config.getOrThrow<string[]>('KAFKA_BROKERS'),
              clientId: `${options.service}-${process.pid}`,
            }),
        },
        {
          provide: TopicNamer,
          inject: [ConfigService],
          useFactory: (config: ConfigService) => new TopicNamer(config.get<string>('KAFKA_TOPIC_PREFIX') ?? ''),
        },
        {
          provide: EventProducer,
          inject: [KAFKA_CLIENT, TopicNamer],
          useFactory: (kafka: Kafka, namer: TopicNamer) => new EventProducer(kafka, namer),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, EventProducer, ConfigService],
          useFactory: (dataSource: DataSource, producer: EventProducer, config: ConfigService) =>
            new OutboxRelay(dataSource, producer, { schema: options.schema, retainMs: config.get<number>('OUTBOX_RETAIN_MS') }),
        },
        {
          provide: Outbox,
          inject: [TopicNamer, OutboxRelay],
          useFactory: (namer: TopicNamer, relay: OutboxRelay) => new Outbox(options.schema, namer, relay.publishCommitted),
        },
        MessagingService,
        KafkaHealthIndicator,
      ],
      exports: [KAFKA_CLIENT, TopicNamer, EventProducer, Outbox, OutboxRelay, MessagingService, KafkaHealthIndicator],
    };
  }
}
