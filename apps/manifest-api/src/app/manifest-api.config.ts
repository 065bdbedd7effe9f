import { BaseServiceConfig } from '@owd/platform';

/** manifest-api settings (docs/operations.md lists every variable). */
export class ManifestApiConfig extends BaseServiceConfig {
  override PORT = 3000;
}
