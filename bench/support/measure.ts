// Numbers the benchmarks share: latency percentiles, and CPU time and resident memory of processes read from /proc.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Client } from 'pg';

/** Kernel clock ticks per second (USER_HZ), the unit of utime/stime in /proc/<pid>/stat. */
const CLK_TCK = 100;

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** p50/p95/p99/max in whole milliseconds; null for an empty list (nothing to summarise). */
export function summarize(values: readonly number[]): LatencySummary | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round(percentile(sorted, p));
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: Math.round(sorted[sorted.length - 1]) };
}

/** CPU time (user + system) the process has used so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** utime + stime + cutime + cstime of a process in ms: its own CPU and that of its children it has reaped. */
function withReapedChildrenMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK;
}

/** Every process under `pid` (children, their children, ...), from one pass over /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  for (let queue = [pid]; queue.length > 0;) {
    const next = queue.flatMap((p) => children.get(p) ?? []);
    out.push(...next);
    queue = next;
  }
  return out;
}

/**
 * CPU of a server and every process under it, in ms (PostgreSQL's backends come and go: a finished one's time
 * moves into its parent's reaped-children time, a live one's is read directly).
 */
export function treeCpuMs(pid: number): number {
  let total = withReapedChildrenMs(pid);
  for (const p of descendants(pid)) {
    try {
      total += withReapedChildrenMs(p);
    } catch {
      // Gone meanwhile: its time is in its parent's reaped-children time now.
    }
  }
  return total;
}

/** The process on this machine listening on TCP `port` (a local broker or database), or undefined. */
export function pidListeningOn(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local address "ADDR:PORT" in hex, state 0A = LISTEN, inode in column 10.
      if (cols.length > 9 && cols[3] === '0A' && parseInt(cols[1].split(':')[1], 16) === port) inodes.add(cols[9]);
    }
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(entry);
      }
    } catch {
      // Not ours to read, or gone.
    }
  }
  return undefined;
}

/** CPU the local Kafka broker and PostgreSQL used over a window (they share the machine with the services). */
export class ServerMeter {
  private readonly atStart = new Map<string, number>();

  constructor(private readonly servers: Readonly<Record<string, number | undefined>>) {}

  start(): void {
    for (const [name, pid] of Object.entries(this.servers)) if (pid) this.atStart.set(name, treeCpuMs(pid));
  }

  /** CPU ms since start() per server found on this machine (a remote one is left out). */
  cpu(): Record<string, number> {
    return Object.fromEntries([...this.atStart].map(([name, at]) => [name, treeCpuMs(this.servers[name] as number) - at]));
  }
}

/**
 * CPU of the PostgreSQL processes that work for each of some databases: the backends of its connections and the
 * autovacuum workers on it, told apart by their process titles (`postgres: <user> <database> <client> <state>`,
 * `postgres: autovacuum worker <database>`). What pair needs to compare the database's work of two systems that share
 * one server. A backend's time is read every second and at the end, so one that ends within the window loses at most
 * its last second (the services' pools keep theirs while busy); one born in the window counts from zero. The server's
 * own processes (WAL writer, checkpointer, background writer) work for every database and are left out.
 */
export class DatabaseCpuMeter {
  /** pid → its database and CPU ms at first sight (0 for one born after start), and at the last. */
  private readonly seen = new Map<number, { database: string; first: number; last: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly serverPid: number, private readonly databases: readonly string[]) {}

  start(): void {
    this.seen.clear();
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), 1000).unref();
  }

  /** CPU ms per database since start(). */
  stop(): Record<string, number> {
    this.sample(false);
    clearInterval(this.timer);
    const out: Record<string, number> = Object.fromEntries(this.databases.map((d) => [d, 0]));
    for (const { database, first, last } of this.seen.values()) out[database] += last - first;
    return out;
  }

  private sample(atStart: boolean): void {
    for (const pid of descendants(this.serverPid)) {
      try {
        const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').split(' ');
        const database = this.databases.find((d) => words.includes(d));
        if (database === undefined) continue;
        const cpu = cpuMs(pid);
        const known = this.seen.get(pid);
        if (known) known.last = cpu;
        else this.seen.set(pid, { database, first: atStart ? cpu : 0, last: cpu });
      } catch {
        // Gone meanwhile: its time up to the last reading is counted.
      }
    }
  }
}

/** What PostgreSQL wrote to its WAL: bytes, records, and records that carried a full-page image. */
export interface WalWritten {
  bytes: number;
  records: number;
  fullPageImages: number;
}

/**
 * The WAL the database server wrote over a window (`pg_stat_wal`, PostgreSQL 14+): every row, index entry, lock and
 * commit of a delivery passes through it, so its bytes are what the server's disk, its replicas and its archive take
 * per delivery, and they move far less from run to run than CPU does. The server's, so every database on it counts.
 */
export class WalMeter {
  private atStart: WalWritten | undefined;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    this.atStart = await this.read();
  }

  /** Written since start(). */
  async written(): Promise<WalWritten> {
    const now = await this.read();
    const start = this.atStart as WalWritten;
    return { bytes: now.bytes - start.bytes, records: now.records - start.records, fullPageImages: now.fullPageImages - start.fullPageImages };
  }

  private async read(): Promise<WalWritten> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      const { rows: [row] } = await client.query<{ bytes: string; records: string; fpi: string }>(
        'SELECT wal_bytes::text AS bytes, wal_records::text AS records, wal_fpi::text AS fpi FROM pg_stat_wal');
      return { bytes: Number(row.bytes), records: Number(row.records), fullPageImages: Number(row.fpi) };
    } finally {
      await client.end();
    }
  }
}

export interface SchedulerCounts {
  /** Time the threads were runnable but waited for a core (the kernel's run-queue wait), ms. */
  waitMs: number;
  /** Times a thread was put on a core (its slices: woken or preempted and back), whatever the reason. */
  switches: number;
}

/** Run-queue wait and slices summed over the threads of the processes (/proc/<pid>/task/<tid>/schedstat). */
function schedulerCounts(pids: readonly number[]): Map<string, SchedulerCounts> {
  const out = new Map<string, SchedulerCounts>();
  for (const pid of pids) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const [, waitNs, slices] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
        out.set(`${pid}/${tid}`, { waitMs: waitNs / 1e6, switches: slices });
      }
    } catch {
      // Gone meanwhile (a finished backend, an ended thread): what it waited is not counted.
    }
  }
  return out;
}

/**
 * How long each named process waited for a core over a window, and how often it was put on one: on a busy
 * machine the wait, not the work, is most of a delivery's latency. `trees` names the servers whose processes come
 * and go (PostgreSQL's backends); their live processes at the end are counted, threads that ended are not.
 */
export class SchedulerMeter {
  private atStart = new Map<string, Map<string, SchedulerCounts>>();

  constructor(private readonly pids: Readonly<Record<string, number | undefined>>, private readonly trees: readonly string[] = []) {}

  private read(name: string): Map<string, SchedulerCounts> {
    const pid = this.pids[name] as number;
    return schedulerCounts(this.trees.includes(name) ? [pid, ...descendants(pid)] : [pid]);
  }

  start(): void {
    for (const [name, pid] of Object.entries(this.pids)) if (pid) this.atStart.set(name, this.read(name));
  }

  /** Per process found at start, the wait (ms) and switches since start() divided by `units`, two decimals. */
  perUnit(units: number): Record<string, SchedulerCounts> {
    const out: Record<string, SchedulerCounts> = {};
    for (const [name, before] of this.atStart) {
      let waitMs = 0;
      let switches = 0;
      for (const [thread, now] of this.read(name)) {
        waitMs += now.waitMs - (before.get(thread)?.waitMs ?? 0);
        switches += now.switches - (before.get(thread)?.switches ?? 0);
      }
      const per = (n: number) => (units > 0 ? Number((n / units).toFixed(2)) : 0);
      out[name] = { waitMs: per(waitMs), switches: per(switches) };
    }
    return out;
  }
}

/** A scheduler meter over the services, the local broker and database (PostgreSQL as a tree) and the bench itself. */
export function systemSchedulerMeter(system: { pids(): Record<string, number>; serverPids(): Record<string, number | undefined> }): SchedulerMeter {
  return new SchedulerMeter({ ...system.pids(), ...system.serverPids(), bench: process.pid }, ['postgres']);
}

/** The two lines the benches print of a SchedulerMeter's figures, `per` naming the unit ("delivery", "result"). */
export function schedulerLines(counts: Readonly<Record<string, SchedulerCounts>>, per: string): string[] {
  const scheduled = Object.entries(counts);
  return [
    `waiting for a core, ms per ${per}: ${scheduled.map(([n, c]) => `${n} ${c.waitMs}`).join(', ')}`,
    `put on a core, times per ${per}: ${scheduled.map(([n, c]) => `${n} ${c.switches}`).join(', ')}`,
  ];
}

/**
 * Resident set size of the process now, in MB: 10^6 bytes, the unit issue #15's target (< 150 MB) is written in. The
 * kernel counts in KiB; until the twenty-seventh round of docs/performance.md the bench printed MiB under this name,
 * 4.9 % smaller numbers (150 MB is 143.05 MiB).
 */
export function rssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}

/**
 * The largest resident set the process has had since it started, in MB: the kernel's own high-water mark, so a burst
 * shorter than any sampling interval (V8 compiling a batch of hot functions holds 15–20 MiB of malloc'd memory for a
 * tenth of a second, docs/performance.md's twenty-sixth round) is counted as a pod's memory limit would meet it.
 */
export function highWaterRssMb(pid: number): number {
  return statusMb(pid, 'VmHWM');
}

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`)) ?? '0';
  return (Number(line.replace(/\D+/g, '')) * 1024) / 1e6;
}

/** CPU used by a set of named processes over a window of the benchmark, and their peak memory. */
export class ProcessMeter {
  private readonly cpuAtStart = new Map<string, number>();

  constructor(private readonly pids: Readonly<Record<string, number>>) {}

  start(): void {
    for (const [name, pid] of Object.entries(this.pids)) this.cpuAtStart.set(name, cpuMs(pid));
  }

  /** CPU milliseconds per process since start(). */
  cpu(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.pids).map(([name, pid]) => [name, cpuMs(pid) - (this.cpuAtStart.get(name) ?? 0)]));
  }

  /** The peaks: each process's high-water mark (a pod's whole life up to now, as its memory limit sees it). */
  stop(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.pids).map(([name, pid]) => [name, Math.round(highWaterRssMb(pid))]));
  }
}

/** CPU milliseconds per unit of work, two decimals. */
export function perUnit(cpu: Record<string, number>, units: number): Record<string, number> {
  return Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, units > 0 ? Number((ms / units).toFixed(2)) : 0]));
}

/**
 * For each named moment (result id → time), the latency summary of `ids` from their start to that moment;
 * ids without the moment are left out (the summary's count says how many are in).
 */
export function latencies<K extends string>(
  ids: readonly string[], start: ReadonlyMap<string, number>, moments: Record<K, ReadonlyMap<string, number>>,
): Record<K, LatencySummary | null> {
  const out = {} as Record<K, LatencySummary | null>;
  for (const name of Object.keys(moments) as K[]) {
    const at = moments[name];
    out[name] = summarize(ids.flatMap((id) => (at.has(id) && start.has(id) ? [(at.get(id) as number) - (start.get(id) as number)] : [])));
  }
  return out;
}

/** Reads a counter's value (summed over its labels) from Prometheus text. */
function counterValue(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const COST_COUNTERS = { statements: 'owd_db_statements_total', commits: 'owd_db_commits_total', kafkaRequests: 'owd_kafka_requests_total' } as const;
/** prom-client's default histogram of the process's garbage collections (wall-clock seconds, by kind). */
const GC_SECONDS = 'nodejs_gc_duration_seconds_sum';
type CostCounts = Record<keyof typeof COST_COUNTERS, number> & { kafkaByApi?: Record<string, number>; gcMs?: number };

/** owd_kafka_requests_total by its `api` label. */
function kafkaRequestsByApi(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  const line = new RegExp(`^${COST_COUNTERS.kafkaRequests}\\{[^}]*api="([^"]+)"[^}]*\\} (\\S+)$`, 'gm');
  for (const match of text.matchAll(line)) out[match[1]] = Number(match[2]);
  return out;
}

/**
 * Statements (round trips) and commits each service sent to PostgreSQL, its requests to Kafka, and the time it spent
 * collecting garbage, over a window, from its /metrics.
 */
export class CostMeter {
  private atStart = new Map<string, CostCounts>();

  constructor(private readonly metricsUrls: Readonly<Record<string, string>>) {}

  private async read(url: string): Promise<CostCounts> {
    const text = await (await fetch(url)).text();
    return {
      statements: counterValue(text, COST_COUNTERS.statements), commits: counterValue(text, COST_COUNTERS.commits),
      kafkaRequests: counterValue(text, COST_COUNTERS.kafkaRequests), kafkaByApi: kafkaRequestsByApi(text),
      gcMs: 1000 * counterValue(text, GC_SECONDS),
    };
  }

  async start(): Promise<void> {
    for (const [name, url] of Object.entries(this.metricsUrls)) this.atStart.set(name, await this.read(url));
  }

  /**
   * Per service, statements, commits and Kafka requests since start() divided by `units`, two decimals; Kafka
   * requests by API and the milliseconds spent in garbage collection, two decimals.
   */
  async perUnit(units: number): Promise<Record<string, CostCounts>> {
    const out: Record<string, CostCounts> = {};
    for (const [name, url] of Object.entries(this.metricsUrls)) {
      const now = await this.read(url);
      const start = this.atStart.get(name) ?? { statements: 0, commits: 0, kafkaRequests: 0 };
      const per = (k: keyof typeof COST_COUNTERS) => (units > 0 ? Number(((now[k] - start[k]) / units).toFixed(2)) : 0);
      const byApi = Object.fromEntries(Object.entries(now.kafkaByApi ?? {}).map(([api, n]) =>
        [api, units > 0 ? Number(((n - (start.kafkaByApi?.[api] ?? 0)) / units).toFixed(2)) : 0]));
      const gcMs = units > 0 ? Number((((now.gcMs ?? 0) - (start.gcMs ?? 0)) / units).toFixed(2)) : 0;
      out[name] = { statements: per('statements'), commits: per('commits'), kafkaRequests: per('kafkaRequests'), kafkaByApi: byApi, gcMs };
    }
    return out;
  }
}

/** Gauges that say where deliveries wait: each service's consumer lag and outbox backlog, the dispatcher's queues. */
const QUEUE_GAUGES = {
  consumerLag: 'owd_consumer_lag',
  outboxBacklog: 'owd_outbox_backlog',
  dispatchInFlight: 'owd_dispatch_in_flight',
  dispatchQueueDepth: 'owd_dispatch_queue_depth',
  waitingForOrigin: 'owd_dispatch_waiting_for_origin',
} as const;
type QueueReading = Partial<Record<keyof typeof QUEUE_GAUGES, number>>;

/** What QueueMeter saw: every reading (seconds since start, per service), and each gauge's largest per service. */
export interface QueueSamples {
  everySeconds: number;
  samples: { t: number; services: Record<string, QueueReading> }[];
  max: Record<string, QueueReading>;
}

/**
 * Reads each service's queue gauges every few seconds while a scenario runs, so a run whose deliveries fall behind
 * its intake says at which stage they wait (a consumer's lag, an outbox not yet relayed, attempts queued in the
 * dispatcher). Gauges a service does not export are left out of its readings.
 */
export class QueueMeter {
  private readonly samples: QueueSamples['samples'] = [];
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  /** Set by stop(): a reading still on its way then neither counts nor schedules the next. */
  private stopped = false;

  constructor(private readonly metricsUrls: Readonly<Record<string, string>>, private readonly everySeconds: number) {}

  start(): void {
    if (this.everySeconds <= 0) return;
    this.startedAt = Date.now();
    const sample = async (): Promise<void> => {
      const t = Math.round((Date.now() - this.startedAt) / 1000);
      // In the services' order; a service that did not answer is left out of this reading.
      const readings = await Promise.all(Object.entries(this.metricsUrls).map(async ([name, url]) => {
        const text = await fetch(url).then((res) => res.text()).catch(() => undefined);
        if (text === undefined) return undefined;
        const reading: QueueReading = {};
        for (const [key, metric] of Object.entries(QUEUE_GAUGES) as [keyof typeof QUEUE_GAUGES, string][]) {
          if (text.includes(`\n${metric} `) || text.includes(`\n${metric}{`)) reading[key] = counterValue(text, metric);
        }
        return [name, reading] as const;
      }));
      if (this.stopped) return;
      this.samples.push({ t, services: Object.fromEntries(readings.filter((r) => r !== undefined)) });
      this.timer = setTimeout(() => void sample(), this.everySeconds * 1000);
    };
    this.timer = setTimeout(() => void sample(), this.everySeconds * 1000);
  }

  stop(): QueueSamples {
    this.stopped = true;
    clearTimeout(this.timer);
    const max: Record<string, QueueReading> = {};
    for (const { services } of this.samples) {
      for (const [name, reading] of Object.entries(services)) {
        const m = (max[name] ??= {});
        for (const [key, value] of Object.entries(reading) as [keyof QueueReading, number][]) m[key] = Math.max(m[key] ?? 0, value);
      }
    }
    return { everySeconds: this.everySeconds, samples: this.samples, max };
  }
}

/** The largest of each queue gauge per service, one line: where a run's deliveries waited most. */
export function queueLine({ everySeconds, samples, max }: QueueSamples): string {
  const names: Record<keyof QueueReading, string> = {
    consumerLag: 'consumer lag', outboxBacklog: 'outbox', dispatchInFlight: 'in flight', dispatchQueueDepth: 'work queue rows (due, postponed or claimed)',
    waitingForOrigin: 'waiting for their origin',
  };
  const services = Object.entries(max).map(([service, reading]) =>
    `${service} ${(Object.entries(reading) as [keyof QueueReading, number][]).map(([k, v]) => `${names[k]} ${v}`).join(', ')}`);
  return `largest queues, read every ${everySeconds} s (${samples.length} readings): ${services.join('; ')}`;
}
