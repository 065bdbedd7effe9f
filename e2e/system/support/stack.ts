import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort, REPO_ROOT, waitFor } from '@owd/testing';
import { ApiClient } from './api-client';

export const SERVICES = ['manifest-api', 'payload-builder', 'dispatcher', 'retry-scheduler', 'notifier'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * The whole system as real processes: the built bundles (`dist/apps/<service>/main.js`), started with the Node.js
 * and options of `launch`, on one test database and one topic prefix. Services can be killed and restarted.
 */
export class Stack {
  readonly adminToken = randomBytes(32).toString('base64url');
  readonly env: Record<string, string>;
  /** Port and process per instance: a service's name, or a replica's name such as `dispatcher#2`. */
  readonly ports = new Map<string, number>();
  private readonly procs = new Map<string, ChildProcess>();
  private readonly logDir: string;

  /**
   * `launch`: the Node.js binary and, for each service, its options before the bundle, and the folder of the bundles
   * (`dist/apps` unless given: the bench can run another build beside this one). The tests use their own Node.js; the
   * bench starts the services as the entrypoint does, on the image's Node.js where it has one (bench/support/output.ts).
   */
  constructor(
    databaseUrl: string,
    prefix: string,
    extraEnv: Record<string, string> = {},
    private readonly launch: { node: string; args: (service: ServiceName) => string[]; bundles?: string } = { node: process.execPath, args: () => [] },
  ) {
    this.logDir = resolve(REPO_ROOT, 'test-artifacts/system', prefix.replace(/\W/g, ''));
    mkdirSync(this.logDir, { recursive: true });
    this.env = {
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: process.env['KAFKA_BROKERS'] ?? '',
      KAFKA_TOPIC_PREFIX: prefix,
      MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: this.adminToken,
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ALLOWED_TARGET_CIDRS: '127.0.0.0/8',
      SMTP_URL: 'smtp://127.0.0.1:1',
      NOTICE_FROM: 'notices@example.test',
      NOTICE_SCHEDULE: 'off',
      // The deployed default (published rows deleted as they are marked), whatever the suite's in-process tests use.
      OUTBOX_RETAIN_MS: '0',
      ...extraEnv,
    };
  }

  url(instance: string): string {
    return `http://127.0.0.1:${this.ports.get(instance)}`;
  }

  /** Starts `service` as `instance` (default: the service's own name; another name starts a replica). */
  async start(service: ServiceName, instance: string = service): Promise<void> {
    const port = this.ports.get(instance) ?? (await freePort());
    this.ports.set(instance, port);
    // The service writes its log straight into the file (opened for appending, so a restarted instance adds to it):
    // no process of ours is woken to copy each line, which under load would put the suite's own CPU on every
    // request the service logs.
    const log = openSync(resolve(this.logDir, `${instance.replace(/\W/g, '_')}.log`), 'a');
    let proc: ChildProcess;
    try {
      proc = spawn(this.launch.node, [...this.launch.args(service), resolve(REPO_ROOT, this.launch.bundles ?? 'dist/apps', service, 'main.js')], {
        env: { ...process.env, ...this.env, PORT: String(port), NODE_ENV: 'production' },
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    this.procs.set(instance, proc);
    await waitFor(async () => {
      if (proc.exitCode !== null) throw new Error(`${instance} exited with ${proc.exitCode}; see ${this.logDir}`);
      const res = await fetch(`${this.url(instance)}/health`).catch(() => undefined);
      return res?.ok;
    }, { timeoutMs: 60_000, intervalMs: 200, what: `${instance} to be healthy` });
  }

  async startAll(): Promise<void> {
    // manifest-api first: its migrations and topics are what the others wait on in a fresh database.
    for (const s of SERVICES) await this.start(s);
  }

  /** Process id of a running service (for CPU and memory readings). */
  pid(instance: string): number | undefined {
    return this.procs.get(instance)?.pid;
  }

  /** True while the instance's process runs. */
  running(instance: string): boolean {
    const proc = this.procs.get(instance);
    return proc !== undefined && proc.exitCode === null && proc.signalCode === null;
  }

  /** SIGKILL: no shutdown hook runs, in-flight work is lost unless the design recovers it. */
  async kill(instance: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const proc = this.procs.get(instance);
    if (!proc || !this.running(instance)) return;
    const exited = new Promise((res) => proc.once('exit', res));
    proc.kill(signal);
    await exited;
  }

  /** A new workspace with one API token, made over the admin API of the running manifest-api. */
  async newWorkspace(name: string): Promise<{ workspaceId: string; token: string; api: ApiClient }> {
    const admin = new ApiClient(this.url('manifest-api'), this.adminToken);
    const ws = await admin.call('POST', '/workspaces', { name });
    const { token } = await admin.call<{ token: string }>('POST', `/workspaces/${ws['id']}/tokens`, { name: 'ci' });
    return { workspaceId: String(ws['id']), token, api: new ApiClient(this.url('manifest-api'), token) };
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.procs.keys()].map((instance) => this.kill(instance, 'SIGTERM')));
  }
}
