import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { NoticesModule } from './notices/notices.module';
import { NotifierConfig } from './notifier.config';
import { ProjectionModule } from './projection/projection.module';

export const SERVICE_SCHEMA = 'notifier';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'notifier',
      config: NotifierConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
    ProjectionModule,
    NoticesModule,
  ],
})
export class AppModule {}
