import { Counter, register } from 'prom-client';

/** Returns the metric already registered under `name`, so several app instances in one process share it. */
function reuse<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

export const noticeMetrics = {
  sent: reuse('owd_notices_sent_total', () => new Counter({
    name: 'owd_notices_sent_total',
    help: 'Weekly notices the SMTP server accepted',
  })),
  failed: reuse('owd_notices_failed_total', () => new Counter({
    name: 'owd_notices_failed_total',
    help: 'Failed SMTP sends of a notice: retried (another attempt follows), released (attempts used up; a later run this week tries again), rejected (permanent SMTP refusal)',
    labelNames: ['outcome'] as const,
  })),
  skipped: reuse('owd_notices_skipped_total', () => new Counter({
    name: 'owd_notices_skipped_total',
    help: 'Goals with findings that got no notice: no_owner_email, deleted_goal',
    labelNames: ['reason'] as const,
  })),
};
