import { Counter, Histogram } from 'prom-client';
import { reuseMetric } from '@owd/platform';

export const payloadBuilderMetrics = {
  frozen: reuseMetric('owd_payloads_frozen_total', () => new Counter({
    name: 'owd_payloads_frozen_total',
    help: 'Payload bodies frozen and handed to the dispatcher, by reason (first, revision, conflict)',
    labelNames: ['reason'] as const,
  })),
  statuses: reuseMetric('owd_results_by_status_total', () => new Counter({
    name: 'owd_results_by_status_total',
    help: 'Result status changes published, by status',
    labelNames: ['status'] as const,
  })),
  buildSeconds: reuseMetric('owd_payload_build_seconds', () => new Histogram({
    name: 'owd_payload_build_seconds',
    help: 'Time to build and serialise one payload v5 body',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
  })),
};
