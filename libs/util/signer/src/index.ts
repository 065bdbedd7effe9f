export * from './lib/signer';
