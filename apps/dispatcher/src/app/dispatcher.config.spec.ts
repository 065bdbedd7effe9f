import { randomBytes } from 'node:crypto';
import { ConfigurationError, validateConfig } from '@owd/platform';
import { DispatcherConfig } from './dispatcher.config';

const base = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  KAFKA_BROKERS: '127.0.0.1:9092',
  SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};
const validate = validateConfig(DispatcherConfig);

function problems(env: Record<string, string>): string {
  try {
    validate({ ...base, ...env });
  } catch (err) {
    if (err instanceof ConfigurationError) return err.message;
    throw err;
  }
  return '';
}

describe('DispatcherConfig', () => {
  it('has the spec defaults: 30 s attempts, retries after 1 and 5 minutes, 64 in flight, 8 to 32 per origin, no sink', () => {
    expect(validate(base)).toMatchObject({
      ATTEMPT_TIMEOUT_MS: 30_000, RETRY_DELAYS_MS: [60_000, 300_000], DISPATCH_CONCURRENCY: 64, DISPATCH_PER_ORIGIN: 8, DISPATCH_PER_ORIGIN_MAX: 32,
      DEV_SINK_URL: '', ALLOWED_TARGET_CIDRS: '',
    });
  });

  it('reads the variables', () => {
    expect(validate({
      ...base, ATTEMPT_TIMEOUT_MS: '1000', RETRY_DELAYS_MS: '200, 400', DISPATCH_CONCURRENCY: '4', DISPATCH_PER_ORIGIN: '2',
      DISPATCH_PER_ORIGIN_MAX: '2', DEV_SINK_URL: 'http://manifest-api:3000/dev-sink', ALLOWED_TARGET_CIDRS: '10.20.0.0/16,::1',
    })).toMatchObject({
      ATTEMPT_TIMEOUT_MS: 1000, RETRY_DELAYS_MS: [200, 400], DISPATCH_CONCURRENCY: 4, DISPATCH_PER_ORIGIN: 2, DISPATCH_PER_ORIGIN_MAX: 2,
      DEV_SINK_URL: 'http://manifest-api:3000/dev-sink',
    });
  });

  it.each([
    ['ALLOWED_TARGET_CIDRS', { ALLOWED_TARGET_CIDRS: '10.20.0.1/16' }],
    ['RETRY_DELAYS_MS', { RETRY_DELAYS_MS: '60000' }],
    ['RETRY_DELAYS_MS', { RETRY_DELAYS_MS: '60000,abc' }],
    ['ATTEMPT_TIMEOUT_MS', { ATTEMPT_TIMEOUT_MS: 'soon' }],
    ['DISPATCH_PER_ORIGIN', { DISPATCH_PER_ORIGIN: '0' }],
    ['DISPATCH_PER_ORIGIN_MAX', { DISPATCH_PER_ORIGIN_MAX: '4' }],
    ['DISPATCH_PER_ORIGIN_MAX', { DISPATCH_PER_ORIGIN: '16', DISPATCH_PER_ORIGIN_MAX: '12' }],
    ['DISPATCH_PER_ORIGIN_MAX', { DISPATCH_PER_ORIGIN_MAX: 'many' }],
    ['DEV_SINK_URL', { DEV_SINK_URL: 'ftp://sink' }],
    ['SECRET_ENCRYPTION_KEY', { SECRET_ENCRYPTION_KEY: 'short' }],
  ])('refuses a bad %s and names it', (name, env) => {
    expect(problems(env)).toContain(`${name}:`);
  });

  it('never repeats the encryption key in its message', () => {
    const key = randomBytes(16).toString('base64');
    expect(problems({ SECRET_ENCRYPTION_KEY: key })).not.toContain(key);
  });
});
