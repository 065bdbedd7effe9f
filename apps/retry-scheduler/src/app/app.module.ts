import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { SERVICE_SCHEMA } from '../database/schema';
import { RetrySchedulerConfig } from './retry-scheduler.config';
import { TimersModule } from './timers/timers.module';

export { SERVICE_SCHEMA };

@Module({
  imports: [
    PlatformModule.forService({
      service: 'retry-scheduler',
      config: RetrySchedulerConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
    TimersModule,
  ],
})
export class AppModule {}
