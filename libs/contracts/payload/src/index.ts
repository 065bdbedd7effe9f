export * from './lib/payload';
