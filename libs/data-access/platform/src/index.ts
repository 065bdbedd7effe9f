export * from './lib/platform';
