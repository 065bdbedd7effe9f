import { ConfigurationError, validateConfig } from '@owd/platform';
import { RetrySchedulerConfig } from './retry-scheduler.config';

const required = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', KAFKA_BROKERS: '127.0.0.1:9092' };
const validate = validateConfig(RetrySchedulerConfig);

describe('RetrySchedulerConfig', () => {
  it('defaults to a 1 s poll, no jitter and 100 timers per round', () => {
    expect(validate(required)).toMatchObject({ RETRY_POLL_MS: 1000, RETRY_JITTER_MS: 0, RETRY_BATCH_SIZE: 100 });
  });

  it('takes shortened timings from the environment', () => {
    expect(validate({ ...required, RETRY_POLL_MS: '100', RETRY_JITTER_MS: '3000' })).toMatchObject({ RETRY_POLL_MS: 100, RETRY_JITTER_MS: 3000 });
  });

  it.each([['RETRY_POLL_MS', 'soon'], ['RETRY_POLL_MS', '0'], ['RETRY_JITTER_MS', '-1'], ['RETRY_BATCH_SIZE', '0']])(
    'refuses to start with %s=%s and names the variable',
    (name, value) => {
      expect(() => validate({ ...required, [name]: value })).toThrow(ConfigurationError);
      expect(() => validate({ ...required, [name]: value })).toThrow(new RegExp(name));
    },
  );
});
