import { Module } from '@nestjs/common';
import { PlatformModule } from '@owd/platform';
import { MIGRATIONS } from '../database/migrations';
import { DeliveryModule } from './delivery/delivery.module';
import { DispatcherConfig } from './dispatcher.config';

export const SERVICE_SCHEMA = 'dispatcher';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'dispatcher',
      config: DispatcherConfig,
      database: { schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] },
    }),
    DeliveryModule,
  ],
})
export class AppModule {}
