export * from './lib/infra';
export * from './lib/test-database';
export * from './lib/test-topics';
export * from './lib/wait-for';
export * from './lib/topic-reader';
export * from './lib/receiver';
export * from './lib/dashboards';
export * from './lib/otlp-collector';
