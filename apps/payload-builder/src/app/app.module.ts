import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { PayloadBuilderConfig } from './payload-builder.config';
import { ResultsModule } from './results/results.module';
import { SERVICE_SCHEMA } from './service-schema';

export { SERVICE_SCHEMA } from './service-schema';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'payload-builder',
      config: PayloadBuilderConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
    ResultsModule,
  ],
})
export class AppModule {}
