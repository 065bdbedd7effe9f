import type { MixedList, EntitySchema } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { PreparingClient } from './prepared-statements';
import { StatementMetricsSubscriber } from './statement-metrics';

type Constructor = new (...args: never[]) => unknown;

/** A service's own slice of the database: its schema, its migrations, its entities. */
export interface ServiceDatabaseOptions {
  schema: string;
  migrations: Constructor[];
  entities?: MixedList<Constructor | string | EntitySchema>;
}

export const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');

/** TypeORM options shared by the services, the migration command and the tests. */
export function dataSourceOptions(url: string, options: ServiceDatabaseOptions): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url,
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    subscribers: [StatementMetricsSubscriber],
    // Schema changes only ever go through migrations.
    synchronize: false,
    migrationsRun: false,
    // TypeORM's query logger prints every parameter value; failed queries reach the logs as errors, without them.
    logging: false,
    extra: {
      max: Number(process.env['DATABASE_POOL_SIZE'] ?? 10),
      options: `-c search_path=${options.schema}`,
      // Repeated statements go as named prepared statements (prepared-statements.ts); off behind a pooler
      // that cannot keep them (PgBouncer before 1.21 in transaction mode): docs/operations.md.
      ...(process.env['DATABASE_PREPARED_STATEMENTS'] === 'off' ? {} : { Client: PreparingClient }),
    },
  };
}
