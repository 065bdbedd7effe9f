import { Counter } from 'prom-client';
import { reuseMetric } from '@owd/platform';

export const targetPolicyMetrics = {
  refused: reuseMetric('owd_api_addresses_refused_total', () => new Counter({
    name: 'owd_api_addresses_refused_total',
    help: 'Recipient URLs the API refused by the address restriction, by rule and action (save: goal settings; send_test: Send test, before or while connecting)',
    labelNames: ['rule', 'action'] as const,
  })),
};
