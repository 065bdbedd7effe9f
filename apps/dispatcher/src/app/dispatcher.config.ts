import { BaseServiceConfig } from '@owd/platform';

/** dispatcher settings (docs/operations.md lists every variable). */
export class DispatcherConfig extends BaseServiceConfig {
  override PORT = 3002;
}
