import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { ManifestApiConfig } from './manifest-api.config';

export const SERVICE_SCHEMA = 'manifest_api';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'manifest-api',
      config: ManifestApiConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
  ],
})
export class AppModule {}
