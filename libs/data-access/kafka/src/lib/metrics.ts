import { Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * Returns the metric already registered under `name` (prom-client's global registry), or creates it:
 * several modules, and several app instances in one test process, then share one metric.
 */
export function reuseMetric<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

export const messagingMetrics = {
  consumed: reuseMetric('owd_events_consumed_total', () => new Counter({
    name: 'owd_events_consumed_total',
    help: 'Events consumed, by topic, type and result (processed, duplicate, ignored, dead_lettered)',
    labelNames: ['topic', 'type', 'result'] as const,
  })),
  handlerSeconds: reuseMetric('owd_event_handler_seconds', () => new Histogram({
    name: 'owd_event_handler_seconds',
    help: 'Time to handle one event including its database transaction',
    labelNames: ['topic'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  })),
  outboxPublished: reuseMetric('owd_outbox_published_total', () => new Counter({
    name: 'owd_outbox_published_total',
    help: 'Outbox rows published to Kafka and acknowledged by the broker; via: memory (after their commit) or table (at start, after a failed send, or swept)',
    labelNames: ['topic', 'via'] as const,
  })),
  outboxBacklog: reuseMetric('owd_outbox_backlog', () => new Gauge({
    name: 'owd_outbox_backlog',
    help: 'Outbox rows not yet published',
  })),
  outboxOldestAge: reuseMetric('owd_outbox_oldest_age_seconds', () => new Gauge({
    name: 'owd_outbox_oldest_age_seconds',
    help: 'Age of the oldest unpublished outbox row',
  })),
  consumerLag: reuseMetric('owd_consumer_lag', () => new Gauge({
    name: 'owd_consumer_lag',
    help: 'Messages of a partition the consumer group has not processed yet, as seen by the member that owns it (high watermark of its last fetch minus the next offset)',
    labelNames: ['group', 'topic', 'partition'] as const,
  })),
  chunksSeparated: reuseMetric('owd_consumer_chunks_separated_total', () => new Counter({
    name: 'owd_consumer_chunks_separated_total',
    help: 'Transactions shared by the chunks of several partitions that failed, after which each chunk was done on its own',
    labelNames: ['group'] as const,
  })),
  chunksRedone: reuseMetric('owd_consumer_chunks_redone_total', () => new Counter({
    name: 'owd_consumer_chunks_redone_total',
    help: 'Chunks that failed when every event was taken as new (a copy of an event handled before, or another failure) and were done again with the copies skipped first',
    labelNames: ['topic'] as const,
  })),
  consumerRestarts: reuseMetric('owd_consumer_restarts_total', () => new Counter({
    name: 'owd_consumer_restarts_total',
    help: 'Consumers that crashed on an error kafkajs does not restart by itself and were started again, and tries again of a consumer that could not start',
    labelNames: ['group'] as const,
  })),
  kafkaRequests: reuseMetric('owd_kafka_requests_total', () => new Counter({
    name: 'owd_kafka_requests_total',
    help: 'Requests sent to Kafka brokers by this process, by API (Produce, Fetch, OffsetCommit, Heartbeat, ...): each one round trip',
    labelNames: ['api'] as const,
  })),
  relayErrors: reuseMetric('owd_outbox_relay_errors_total', () => new Counter({
    name: 'owd_outbox_relay_errors_total',
    help: 'Failed outbox relay rounds (the rows stay and are retried)',
  })),
};

/** Counts every request a kafkajs client (consumer or producer) sends: the bench divides them by deliveries. */
export function countKafkaRequests(client: { on(event: string, listener: (e: { payload: { apiName: string } }) => void): unknown; events: { REQUEST: string } }): void {
  client.on(client.events.REQUEST, ({ payload }) => messagingMetrics.kafkaRequests.inc({ api: payload.apiName }));
}
