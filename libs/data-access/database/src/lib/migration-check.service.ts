import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { DATABASE_OPTIONS, type ServiceDatabaseOptions } from './database.options';
import { pendingMigrations, runMigrations, SchemaBehindError } from './migrations';

/**
 * At start-up: apply pending migrations when MIGRATE_ON_START is on (local runs),
 * otherwise refuse to start on a schema that is behind (production runs the migration Job first).
 */
@Injectable()
export class MigrationCheckService implements OnModuleInit {
  private readonly logger = new Logger(MigrationCheckService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: ConfigService,
    @Inject(DATABASE_OPTIONS) private readonly options: ServiceDatabaseOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    const { schema } = this.options;
    if (this.config.get<boolean>('MIGRATE_ON_START')) {
      const applied = await runMigrations(this.dataSource, schema);
      if (applied.length) this.logger.log({ msg: 'migrations applied', schema, applied });
      return;
    }
    const pending = await pendingMigrations(this.dataSource, schema);
    if (pending.length) throw new SchemaBehindError(schema, pending);
  }
}
