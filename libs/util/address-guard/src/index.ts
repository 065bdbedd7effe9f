export * from './lib/address-guard';
