import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { NotifierConfig } from './notifier.config';

export const SERVICE_SCHEMA = 'notifier';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'notifier',
      config: NotifierConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
  ],
})
export class AppModule {}
