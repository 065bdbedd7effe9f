export * from './lib/base.config';
export * from './lib/env-transforms';
export * from './lib/validate-config';
export * from './lib/metrics.controller';
export * from './lib/health.controller';
export * from './lib/platform.module';
export * from './lib/bootstrap';
export * from './lib/tracing';
export { reuseMetric } from '@owd/kafka';
