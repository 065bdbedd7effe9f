import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { PayloadBuilderConfig } from './payload-builder.config';

export const SERVICE_SCHEMA = 'payload_builder';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'payload-builder',
      config: PayloadBuilderConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
  ],
})
export class AppModule {}
