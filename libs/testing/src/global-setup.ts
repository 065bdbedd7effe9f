import { ensureTestInfrastructure } from './lib/infra';

/** Jest global setup for the integration suite: a real broker and database, shared by the test files. */
export default function globalSetup(): void {
  const env = ensureTestInfrastructure();
  Object.assign(process.env, env, { NODE_ENV: 'test' });
}
