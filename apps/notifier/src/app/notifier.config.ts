import { BaseServiceConfig } from '@owd/platform';

/** notifier settings (docs/operations.md lists every variable). */
export class NotifierConfig extends BaseServiceConfig {
  override PORT = 3004;
}
