import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { ENTITIES } from '../database/entities';
import { MIGRATIONS } from '../database/migrations';
import { SERVICE_SCHEMA } from '../database/schema';
import { API_MODULES } from './api-modules';
import { ManifestApiConfig } from './manifest-api.config';

export { SERVICE_SCHEMA };

@Module({
  imports: [
    PlatformModule.forService({
      service: 'manifest-api',
      config: ManifestApiConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: ENTITIES },
    }),
    ...API_MODULES,
  ],
})
export class AppModule {}
