import { Counter } from 'prom-client';
import { reuseMetric } from '@owd/platform';

export const noticeMetrics = {
  sent: reuseMetric('owd_notices_sent_total', () => new Counter({
    name: 'owd_notices_sent_total',
    help: 'Weekly notices the SMTP server accepted',
  })),
  failed: reuseMetric('owd_notices_failed_total', () => new Counter({
    name: 'owd_notices_failed_total',
    help: 'Failed SMTP sends of a notice: retried (another attempt follows), released (attempts used up; a later run this week tries again), rejected (permanent SMTP refusal)',
    labelNames: ['outcome'] as const,
  })),
  skipped: reuseMetric('owd_notices_skipped_total', () => new Counter({
    name: 'owd_notices_skipped_total',
    help: 'Goals with findings that got no notice: no_owner_email, deleted_goal',
    labelNames: ['reason'] as const,
  })),
};
