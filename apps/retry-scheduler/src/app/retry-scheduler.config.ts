import { BaseServiceConfig } from '@owd/platform';

/** retry-scheduler settings (docs/operations.md lists every variable). */
export class RetrySchedulerConfig extends BaseServiceConfig {
  override PORT = 3003;
}
