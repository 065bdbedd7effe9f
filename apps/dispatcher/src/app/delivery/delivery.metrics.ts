import { Counter, Gauge, Histogram } from 'prom-client';
import { reuseMetric } from '@owd/platform';

export const deliveryMetrics = {
  attempts: reuseMetric('owd_deliveries_total', () => new Counter({
    name: 'owd_deliveries_total',
    help: 'Delivery attempts by outcome (delivered, retriable, permanent, conflict, refused)',
    labelNames: ['outcome'] as const,
  })),
  duration: reuseMetric('owd_attempt_duration_seconds', () => new Histogram({
    name: 'owd_attempt_duration_seconds',
    help: 'Duration of one delivery attempt (connect, request, response up to the body cap)',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60],
  })),
  refused: reuseMetric('owd_addresses_refused_total', () => new Counter({
    name: 'owd_addresses_refused_total',
    help: 'Delivery attempts refused by the address restriction, by rule',
    labelNames: ['rule'] as const,
  })),
  inFlight: reuseMetric('owd_dispatch_in_flight', () => new Gauge({
    name: 'owd_dispatch_in_flight',
    help: 'Delivery attempts in flight in this process',
  })),
  waitingForOrigin: reuseMetric('owd_dispatch_waiting_for_origin', () => new Gauge({
    name: 'owd_dispatch_waiting_for_origin',
    help: 'Claimed delivery attempts waiting in this process for a free slot at their receiver origin',
  })),
  queueDepth: reuseMetric('owd_dispatch_queue_depth', () => new Gauge({
    name: 'owd_dispatch_queue_depth',
    help: 'Rows in the work queue (due, postponed or claimed)',
  })),
};
