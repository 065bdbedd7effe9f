import { BaseServiceConfig } from '@owd/platform';

/** payload-builder settings (docs/operations.md lists every variable). */
export class PayloadBuilderConfig extends BaseServiceConfig {
  override PORT = 3001;
}
