export * from './lib/database';
