import { Counter, Gauge } from 'prom-client';
import { reuseMetric } from '@owd/platform';

export const timerMetrics = {
  pending: reuseMetric('owd_retry_timers_pending', () => new Gauge({
    name: 'owd_retry_timers_pending',
    help: 'Retry timers stored and not yet fired or cancelled',
  })),
  oldestDueSeconds: reuseMetric('owd_retry_oldest_due_seconds', () => new Gauge({
    name: 'owd_retry_oldest_due_seconds',
    help: 'How late the oldest due, unfired timer is (0 when none is overdue)',
  })),
  scheduled: reuseMetric('owd_retry_timers_scheduled_total', () => new Counter({
    name: 'owd_retry_timers_scheduled_total',
    help: 'Retry timers stored from delivery.attempted events',
  })),
  fired: reuseMetric('owd_retry_timers_fired_total', () => new Counter({
    name: 'owd_retry_timers_fired_total',
    help: 'Retry timers fired (delivery.retry-due written to the outbox)',
  })),
  cancelled: reuseMetric('owd_retry_timers_cancelled_total', () => new Counter({
    name: 'owd_retry_timers_cancelled_total',
    help: 'Pending retry timers cancelled by a later attempt of the same delivery',
  })),
};
