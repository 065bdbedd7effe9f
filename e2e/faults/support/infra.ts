import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { resolve } from 'node:path';

// Jest's global setup runs without the path aliases: the repository root is found relative to this file.
const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * The broker and the database of the fault suite: its own, on ports apart from the integration suite's
 * and `npm start`'s, because the suite restarts and stops them. Data survives a restart (the same folders). Below
 * Linux's ephemeral range, as every fixed port of the project (libs/testing's infra.ts says why).
 */
export const FAULT_KAFKA_PORT = Number(process.env['FAULT_KAFKA_PORT'] ?? 19092);
export const FAULT_PG_PORT = Number(process.env['FAULT_PG_PORT'] ?? 15434);

const kafkaEnv = {
  KAFKA_DIR: resolve(REPO_ROOT, '.local/kafka-faults'),
  KAFKA_PORT: String(FAULT_KAFKA_PORT),
  KAFKA_CONTROLLER_PORT: String(FAULT_KAFKA_PORT + 1),
};
const postgresEnv = { PG_DIR: resolve(REPO_ROOT, '.local/postgres-faults'), PG_PORT: String(FAULT_PG_PORT) };

/** Jest's global setup is synchronous. */
function runSync(command: string, args: string[], env: Record<string, string>): void {
  execFileSync(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
}

/** In a test: asynchronous, so the test's own sockets (keep-alive connections to the API) stay served meanwhile. */
async function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  const { stdout } = await promisify(execFile)(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env } });
  process.stdout.write(stdout);
}

export const faultInfra = {
  brokers: `127.0.0.1:${FAULT_KAFKA_PORT}`,
  adminDatabaseUrl: `postgres://postgres:postgres@127.0.0.1:${FAULT_PG_PORT}/postgres`,

  /** Before the suite (global setup): the broker and the database up. */
  startAllSync(): void {
    runSync('bash', ['tools/kafka/kafka.sh', 'start'], kafkaEnv);
    runSync(process.execPath, ['tools/postgres/postgres.mjs', 'start'], postgresEnv);
  },
  startKafka: () => run('bash', ['tools/kafka/kafka.sh', 'start'], kafkaEnv),
  /** A clean broker stop (SIGTERM, controlled shutdown), as a rolling restart does. */
  stopKafka: () => run('bash', ['tools/kafka/kafka.sh', 'stop'], kafkaEnv),
  startPostgres: () => run(process.execPath, ['tools/postgres/postgres.mjs', 'start'], postgresEnv),
  /** PostgreSQL's fast shutdown: open connections are cut, as in a fail-over. */
  stopPostgres: () => run(process.execPath, ['tools/postgres/postgres.mjs', 'stop'], postgresEnv),
};
