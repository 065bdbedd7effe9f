import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DatabaseModule } from '@owd/database';
import { validateConfig } from '@owd/platform';
import { MIGRATIONS } from '../../database/migrations';
import { PayloadBuilderConfig } from '../payload-builder.config';
import { ResultStore } from '../results/result-store.service';
import { SERVICE_SCHEMA } from '../service-schema';
import { ProjectionRebuildService } from './projection-rebuild.service';

/** Only what the rebuild needs: configuration and the database. No Kafka, so no consumer starts. */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, cache: true, validate: validateConfig(PayloadBuilderConfig) }),
    DatabaseModule.forService({ schema: SERVICE_SCHEMA, migrations: MIGRATIONS, entities: [] }),
  ],
  providers: [ResultStore, ProjectionRebuildService],
})
export class RebuildModule {}
