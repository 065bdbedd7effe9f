import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DATABASE_OPTIONS, dataSourceOptions, type ServiceDatabaseOptions } from './database.options';
import { MigrationCheckService } from './migration-check.service';

/** TypeORM connection to DATABASE_URL, scoped to the service's own schema. */
@Module({})
export class DatabaseModule {
  static forService(options: ServiceDatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            ...dataSourceOptions(config.getOrThrow<string>('DATABASE_URL'), options),
            retryAttempts: 3,
            retryDelay: 1000,
          }),
        }),
      ],
      providers: [{ provide: DATABASE_OPTIONS, useValue: options }, MigrationCheckService],
      exports: [DATABASE_OPTIONS],
    };
  }
}
