import { ensureTestInfrastructure } from './lib/infra';

/**
 * Jest global setup for the integration suite: a real broker and database, shared by the test files. The services
 * the tests run in this process keep published outbox rows (an hour), because tests read what a service wrote to
 * its outbox; the relay's default, deleting them, is tested in messaging.e2e-spec and run by the system stack.
 */
export default function globalSetup(): void {
  const env = ensureTestInfrastructure();
  Object.assign(process.env, env, { NODE_ENV: 'test', OUTBOX_RETAIN_MS: '3600000' });
}
