import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { RetrySchedulerConfig } from './retry-scheduler.config';

export const SERVICE_SCHEMA = 'retry_scheduler';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'retry-scheduler',
      config: RetrySchedulerConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
  ],
})
export class AppModule {}
