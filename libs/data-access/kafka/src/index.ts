export * from './lib/kafka';
