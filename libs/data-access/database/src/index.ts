export * from './lib/database.options';
export * from './lib/migrations';
export * from './lib/migration-check.service';
export * from './lib/database.module';
export * from './lib/unavailable';
export * from './lib/after-commit';
export * from './lib/transaction-scope';
export * from './lib/statement-metrics';
