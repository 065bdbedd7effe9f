import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../../../..');

/**
 * Ports of the test-only broker and database, apart from the ones `npm start` uses. Every fixed port of the project is
 * below Linux's ephemeral range (32768–60999): a port inside it can be held, at the moment a server starts or
 * restarts, as the local end of some client's connection, and the server then cannot listen on it (the fault suite's
 * PostgreSQL once did not start on 55434 so).
 */
const TEST_KAFKA_PORT = process.env['TEST_KAFKA_PORT'] ?? '29092';
const TEST_PG_PORT = process.env['TEST_PG_PORT'] ?? '15433';

/** True when something accepts TCP connections on 127.0.0.1:port (a broker left by an earlier run). */
function listening(port: string): boolean {
  const probe = `require('net').connect(${Number(port)}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  try {
    execFileSync(process.execPath, ['-e', probe], { stdio: 'ignore', timeout: 3000 });
    return true;
  } catch {
    return false;
  }
}

function run(command: string, args: string[], env: Record<string, string>): void {
  execFileSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
}

/**
 * Makes sure a real broker and a real PostgreSQL are there for the integration tests:
 * KAFKA_BROKERS / DATABASE_URL when set, otherwise the project's own local servers, started here.
 * Returns the environment the tests use.
 */
export function ensureTestInfrastructure(): { KAFKA_BROKERS: string; TEST_DATABASE_URL: string } {
  let brokers = process.env['KAFKA_BROKERS'];
  if (!brokers && listening(TEST_KAFKA_PORT)) brokers = `127.0.0.1:${TEST_KAFKA_PORT}`;
  if (!brokers) {
    run('bash', ['tools/kafka/kafka.sh', 'start'], {
      KAFKA_DIR: resolve(REPO_ROOT, '.local/kafka-test'),
      KAFKA_PORT: TEST_KAFKA_PORT,
      KAFKA_CONTROLLER_PORT: String(Number(TEST_KAFKA_PORT) + 1),
    });
    brokers = `127.0.0.1:${TEST_KAFKA_PORT}`;
  }
  let databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) {
    run(process.execPath, ['tools/postgres/postgres.mjs', 'start'], {
      PG_DIR: resolve(REPO_ROOT, '.local/postgres-test'),
      PG_PORT: TEST_PG_PORT,
    });
    databaseUrl = `postgres://postgres:postgres@127.0.0.1:${TEST_PG_PORT}/postgres`;
  }
  return { KAFKA_BROKERS: brokers, TEST_DATABASE_URL: databaseUrl };
}
