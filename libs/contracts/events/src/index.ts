export * from './lib/events';
