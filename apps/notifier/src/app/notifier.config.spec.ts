import { ConfigurationError, validateConfig } from '@owd/platform';
import { NotifierConfig } from './notifier.config';

const valid = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  KAFKA_BROKERS: '127.0.0.1:9092',
  SMTP_URL: 'smtp://user:secret@127.0.0.1:2525',
  NOTICE_FROM: 'notices@example.test',
};

function problems(env: Record<string, string>): string[] {
  try {
    validateConfig(NotifierConfig)(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigurationError) return err.problems;
    throw err;
  }
}

describe('NotifierConfig', () => {
  it('applies the defaults: weekly on Monday 08:00 UTC, stale after 7 days', () => {
    const config = validateConfig(NotifierConfig)(valid);
    expect(config).toMatchObject({ NOTICE_SCHEDULE: 'MON 08:00', STALE_REPORT_AFTER_DAYS: 7, SMTP_MAX_ATTEMPTS: 3 });
  });

  it('reads numbers from the environment', () => {
    expect(validateConfig(NotifierConfig)({ ...valid, STALE_REPORT_AFTER_DAYS: '14' }).STALE_REPORT_AFTER_DAYS).toBe(14);
  });

  it.each([
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.test' }],
    ['SMTP_URL', { SMTP_URL: undefined }],
    ['NOTICE_FROM', { NOTICE_FROM: 'not an address' }],
    ['NOTICE_SCHEDULE', { NOTICE_SCHEDULE: 'weekly' }],
    ['STALE_REPORT_AFTER_DAYS', { STALE_REPORT_AFTER_DAYS: '0' }],
    ['NOTICE_LEASE_SECONDS', { NOTICE_LEASE_SECONDS: '120', SMTP_MAX_ATTEMPTS: '5' }],
  ])('refuses a bad %s and names it without its value', (name, change) => {
    const env = Object.fromEntries(Object.entries({ ...valid, ...change }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const found = problems(env);
    expect(found.some((p) => p.startsWith(`${name}:`))).toBe(true);
    expect(found.join(' ')).not.toContain('secret');
  });
});
