// degraded: results arrive at a fixed rate (open loop, on a timer) of half of steady's throughput while the
// receivers misbehave: each healthy goal's receiver answers 90 % of requests 204 at once, 9 % 204 after 200 ms
// and 1 % 500 (drawn per request from a seeded hash, so a run is repeatable), and one more goal's receiver reads
// the request and never answers. The measured seconds come after a warm-up at the same rate to the healthy goals
// (freshly started services compile their hot code and fill their pools meanwhile), whose latency is reported apart.
// Reports the healthy receivers' latency next to steady's, the attempts per outcome, every retry's gap against
// RETRY_DELAYS_MS, and checks submitted = delivered + failed + pending from the API's result states, the warm-up's
// results included (exit code 1 when it does not balance or a retry came early).
//   npm run bench -- degraded [rate | steady.json] [seconds] [goals]
// Without a first argument the rate is half of the newest bench/results/*/steady.json.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startReceiver, type ReceivedRequest, type TestReceiver } from '@owd/testing';
import { latencies, ProcessMeter, perUnit, schedulerLines, summarize, systemSchedulerMeter, type LatencySummary, type SchedulerCounts } from './support/measure';
import { conditions, load, machine, runScenario, writeResult } from './support/output';
import { countStates, listResults, readResults, readUntil, type AttemptRead, type ResultRead, type StateCount } from './support/result-states';
import { arrivalRate, arrive, until, WARM_UP_SECONDS, type Submitted } from './support/arrivals';
import { BenchSystem, SERVICES, articleNumber } from './support/system';

/**
 * Bench settings of the dispatcher (production: 30 s and 1 min, 5 min): short enough for a run of minutes, and
 * each delay longer than the timeout, so a timed-out attempt's retry is due after it ends and its gap can be checked.
 */
const ATTEMPT_TIMEOUT_MS = 3_000;
const RETRY_DELAYS_MS = [5_000, 10_000];
const MAX_ATTEMPTS = 3;
/**
 * The dispatcher's DISPATCH_PER_ORIGIN, left at its default: the silent goal's attempts go out this many at a time
 * (its timeouts never let its origin's limit grow past it).
 */
const SLOTS_PER_ORIGIN = 8;
const SEED = 8;
const SLOW_ANSWER_MS = 200;
/** Targets of issue #8 at half load. */
const TARGET_P99_MS = 250;
const TARGET_RSS_MB = 150;
/** An attempt never starts before its due time; this much is allowed for millisecond rounding of the records. */
const EARLY_TOLERANCE_MS = 5;

type Answer = 'at once' | 'after 200 ms' | '500' | 'never';

/** How a healthy receiver answers request number `attempt` of article `n`: a seeded draw, the same in every run. */
function draw(n: number, attempt: number): Answer {
  const u = createHash('sha256').update(`${SEED}:${n}:${attempt}`).digest().readUInt32BE(0) / 2 ** 32;
  if (u < 0.9) return 'at once';
  return u < 0.99 ? 'after 200 ms' : '500';
}

interface Seen {
  requests: { attempt: number; answer: Answer; at: number }[];
  /** When the receiver sent its 2xx for this result. */
  answeredAt?: number;
}

/** What the receivers saw and answered, per result id. */
class Receivers {
  readonly seen = new Map<string, Seen>();
  readonly problems: string[] = [];

  /** Send tests (ids other than res_…) are answered 204 at once by every receiver, so goals can be set up. */
  healthy = (req: ReceivedRequest, res: ServerResponse): void => {
    const id = String(req.headers['idempotency-key']);
    if (!id.startsWith('res_')) return void res.writeHead(204).end();
    const n = articleNumber(req.body);
    if (n === undefined) {
      this.problems.push(`${id}: no article number in the delivered title`);
      return void res.writeHead(400).end();
    }
    const seen = this.entry(id);
    const attempt = seen.requests.length + 1;
    const answer = draw(n, attempt);
    seen.requests.push({ attempt, answer, at: req.at });
    if (answer === '500') return void res.writeHead(500).end();
    const ok = () => {
      seen.answeredAt ??= Date.now();
      res.writeHead(204).end();
    };
    if (answer === 'after 200 ms') setTimeout(ok, SLOW_ANSWER_MS);
    else ok();
  };

  /** Reads the request and never answers; the dispatcher cuts the attempt at ATTEMPT_TIMEOUT_MS. */
  silent = (req: ReceivedRequest): void => {
    const id = String(req.headers['idempotency-key']);
    const seen = this.entry(id);
    seen.requests.push({ attempt: seen.requests.length + 1, answer: 'never', at: req.at });
  };

  /** A result the receivers are done with: answered 2xx, or asked as often as a delivery may ask. */
  settled(id: string): boolean {
    const seen = this.seen.get(id);
    return seen !== undefined && (seen.answeredAt !== undefined || seen.requests.length >= MAX_ATTEMPTS);
  }

  answers(ids: readonly string[]): Record<string, number> {
    const count: Record<string, number> = {};
    for (const id of ids) for (const r of this.seen.get(id)?.requests ?? []) count[r.answer] = (count[r.answer] ?? 0) + 1;
    return count;
  }

  private entry(id: string): Seen {
    let seen = this.seen.get(id);
    if (!seen) this.seen.set(id, (seen = { requests: [] }));
    return seen;
  }
}

function balance(count: StateCount, submitted: number) {
  const balanced = count.listed === submitted && count.delivered + count.failed + count.pending === submitted && Object.keys(count.other).length === 0;
  return { submitted, ...count, balanced };
}

/**
 * Every retry's gap (attempt n + 1 started minus attempt n ended) against RETRY_DELAYS_MS[n - 1], for the healthy goals
 * and the silent one apart: the silent goal's attempts each hold one of its origin's slots for the whole timeout, so
 * its retries queue behind its own first attempts (the origin limit at work) and would hide the healthy goals' timing.
 */
function retryTiming(reads: Iterable<ResultRead>, isSilent: (id: string) => boolean) {
  const groups = ['healthy goals', 'silent goal'] as const;
  const deviations = Object.fromEntries(groups.map((g) => [g, RETRY_DELAYS_MS.map((): number[] => [])])) as Record<(typeof groups)[number], number[][]>;
  const violations: string[] = [];
  for (const read of reads) {
    const attempts = [...(read.attempts ?? [])].sort((a, b) => a.attempt - b.attempt);
    if (attempts.length > MAX_ATTEMPTS) violations.push(`${read.id}: ${attempts.length} attempts`);
    for (let k = 1; k < attempts.length; k++) {
      const [before, after] = [attempts[k - 1], attempts[k]];
      if (before.outcome !== 'retriable') violations.push(`${read.id}: attempt ${after.attempt} after a ${before.outcome} attempt`);
      const delay = RETRY_DELAYS_MS[before.attempt - 1];
      if (delay === undefined) continue;
      const deviation = Date.parse(after.attemptedAt) - Date.parse(before.endedAt) - delay;
      if (deviation < -EARLY_TOLERANCE_MS) violations.push(`${read.id}: attempt ${after.attempt} ${-deviation} ms before its due time`);
      deviations[isSilent(read.id) ? 'silent goal' : 'healthy goals'][before.attempt - 1].push(deviation);
    }
  }
  const byDelay = Object.fromEntries(groups.flatMap((group) => RETRY_DELAYS_MS.map((delay, i) => {
    const d = [...deviations[group][i]].sort((a, b) => a - b);
    return [`before attempt ${i + 2} (${delay} ms), ${group}`, d.length === 0 ? { retries: 0 } : {
      retries: d.length, 'min deviation ms': d[0], 'p50 deviation ms': d[Math.floor(d.length / 2)], 'max deviation ms': d[d.length - 1],
    }];
  })));
  return { byDelay, violations };
}

function attemptKind(a: AttemptRead): string {
  return [a.outcome, a.errorClass, a.status].filter((part) => part !== null && part !== undefined).join(' · ');
}

type Latency = Partial<Record<'atReceiver' | 'onKafka' | 'recorded', LatencySummary | null>>;

interface SteadyFile {
  steady: { deliveredPerSecond: number; latencyMs: Latency };
}

async function main(): Promise<void> {
  const host = machine();
  const { rate, steadyFile, steady } = arrivalRate<SteadyFile>(process.argv[2]);
  const seconds = Number(process.argv[3] ?? 60);
  const goals = Number(process.argv[4] ?? 50);
  const settings = {
    ratePerSecond: rate, seconds, warmUpSeconds: WARM_UP_SECONDS, healthyGoals: goals, silentGoals: 1, seed: SEED,
    answers: { '204 at once': 0.9, [`204 after ${SLOW_ANSWER_MS} ms`]: 0.09, '500': 0.01 },
    ATTEMPT_TIMEOUT_MS, RETRY_DELAYS_MS, steadyFrom: steadyFile,
  };
  console.log(`\ndegraded: ${rate} results/s${steady ? ` (half of steady's ${steady.steady.deliveredPerSecond}/s, ${steadyFile})` : ''} for ${seconds} s `
    + `after ${WARM_UP_SECONDS} s to warm up, over ${goals} healthy goals + 1 goal whose receiver never answers`);
  console.log(`healthy receivers: 90 % 204 at once, 9 % 204 after ${SLOW_ANSWER_MS} ms, 1 % 500 (seed ${SEED}); `
    + `bench settings: ATTEMPT_TIMEOUT_MS=${ATTEMPT_TIMEOUT_MS}, RETRY_DELAYS_MS=${RETRY_DELAYS_MS.join(',')} (production: 30000 and 60000,300000)`);

  const system = await BenchSystem.create({ ATTEMPT_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS), RETRY_DELAYS_MS: RETRY_DELAYS_MS.join(',') });
  const receivers = new Receivers();
  const servers: TestReceiver[] = [];
  try {
    for (let g = 0; g <= goals; g++) servers.push(await startReceiver(receivers.healthy));
    await system.start();
    await system.watchAttempts();
    const goalIds: string[] = [];
    for (const [g, server] of servers.entries()) goalIds.push(await system.addGoal(`Bench desk ${g}`, `${server.url}/hook`));
    // The last goal's receiver answered its Send test; from now on it stays silent.
    const silentGoal = goalIds[goals];
    servers[goals].handle(receivers.silent);

    const meter = new ProcessMeter(system.pids());
    meter.start();
    // The warm-up goes to the healthy goals, with the same answers: the silent goal's backlog would lengthen the drain by minutes.
    const warmUp = await arrive(system, goalIds.slice(0, goals), rate, WARM_UP_SECONDS);
    const scheduler = systemSchedulerMeter(system);
    scheduler.start();
    const intake = await arrive(system, goalIds, rate, seconds, { silentGoal, first: warmUp.next });
    const measured = [...intake.submitted.keys()];
    // Over the measured arrivals only, where the latencies are made (the drain is mostly the silent goal's timeouts).
    const schedulerPerResult = scheduler.perUnit(measured.length);
    // From here on the warm-up's results count as every other: balance, attempts, retries, CPU per delivery.
    const submitted = new Map([...warmUp.submitted, ...intake.submitted]);
    const ids = [...submitted.keys()];
    // At the end of the arrivals most results are still on their way: the count must balance all the same.
    const atArrivalEnd = balance(countStates(await listResults(system.api, goalIds)), ids.length);

    // Drain: wait at the receivers (no API reads, which would be charged to the API's CPU) until each result was
    // answered 2xx or asked MAX_ATTEMPTS times, then until the ten asked last read delivered or failed (a few
    // GETs; the API records an attempt a while after it ends, a silent one ATTEMPT_TIMEOUT_MS after it starts).
    const chainMs = MAX_ATTEMPTS * ATTEMPT_TIMEOUT_MS + RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    // The silent goal's attempts each last the whole timeout, a few at a time: its backlog outlasts one chain as the rate rises.
    const silentResults = [...submitted.values()].filter((s) => s.silent).length;
    const silentBacklogMs = Math.ceil((silentResults * MAX_ATTEMPTS) / SLOTS_PER_ORIGIN) * ATTEMPT_TIMEOUT_MS;
    const drainedAtReceivers = await until(() => ids.every((id) => receivers.settled(id)), Math.max(chainMs, silentBacklogMs) + 120_000, 200);
    const lastAsked = (id: string) => Math.max(0, ...(receivers.seen.get(id)?.requests ?? []).map((r) => r.at));
    const askedLast = [...ids].sort((a, b) => lastAsked(b) - lastAsked(a)).slice(0, 10);
    await readUntil(system.api, askedLast, (r) => r.state.status === 'delivered' || r.state.status === 'failed', { timeoutMs: 120_000 });
    const cpu = meter.cpu();
    let final = atArrivalEnd;
    await until(async () => {
      final = balance(countStates(await listResults(system.api, goalIds)), ids.length);
      return final.pending === 0 && final.listed === ids.length;
    }, 60_000, 1000);
    const peakRssMb = meter.stop();
    const reads = await readResults(system.api, ids);

    // Latency of the healthy goals' delivered results, by how their receiver answered: the measured ones, and the warm-up's apart.
    const byAnswer = (of: ReadonlyMap<string, Submitted>): Record<string, string[]> => {
      const groups: Record<string, string[]> = { 'all delivered': [], 'first attempt': [], '204 at once': [], [`204 after ${SLOW_ANSWER_MS} ms`]: [], 'after a retry': [] };
      for (const [id, s] of of) {
        const seen = receivers.seen.get(id);
        if (s.silent || reads.get(id)?.state.status !== 'delivered' || seen?.answeredAt === undefined) continue;
        const first = seen.requests[0].answer;
        groups['all delivered'].push(id);
        if (seen.requests.length === 1) groups['first attempt'].push(id);
        groups[seen.requests.length > 1 ? 'after a retry' : first === 'at once' ? '204 at once' : `204 after ${SLOW_ANSWER_MS} ms`].push(id);
      }
      return groups;
    };
    const [groups, warmUpGroups] = [byAnswer(intake.submitted), byAnswer(warmUp.submitted)];
    await system.attemptsRead([...warmUpGroups['all delivered'], ...groups['all delivered']]);
    const accepted = new Map([...submitted].map(([id, s]) => [id, s.acceptedAt]));
    const moments = {
      atReceiver: new Map([...receivers.seen].flatMap(([id, seen]) => (seen.answeredAt === undefined ? [] : [[id, seen.answeredAt] as const]))),
      onKafka: system.deliveredOnKafka(),
      recorded: new Map([...reads].map(([id, read]) => [id, Date.parse(read.state.updatedAt)])),
    };
    const latencyOf = (of: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(of).map(([group, members]) => [group, latencies(members, accepted, moments)]));
    const latencyMs = latencyOf(groups);

    const attempts = { healthy: {} as Record<string, number>, silent: {} as Record<string, number>, exampleMessage: {} as Record<string, string> };
    const timeouts: number[] = [];
    for (const [id, read] of reads) {
      const tally = submitted.get(id)?.silent ? attempts.silent : attempts.healthy;
      for (const a of read.attempts ?? []) {
        const kind = attemptKind(a);
        tally[kind] = (tally[kind] ?? 0) + 1;
        if (a.errorMessage) attempts.exampleMessage[kind] ??= a.errorMessage;
        if (a.errorClass === 'timeout') timeouts.push(a.durationMs);
      }
    }
    const silentIds = ids.filter((id) => submitted.get(id)?.silent);
    const retries = retryTiming(reads.values(), (id) => submitted.get(id)?.silent === true);
    const report = {
      machine: { ...host, loadAverage1mAtEnd: load() }, settings,
      intake: {
        submitted: measured.length, rejected: intake.rejected.length, achievedPerSecond: intake.achievedPerSecond, dueToAcceptedMs: intake.intakeMs, maxInFlight: intake.maxInFlight,
        warmUp: { submitted: warmUp.submitted.size, rejected: warmUp.rejected.length, achievedPerSecond: warmUp.achievedPerSecond, dueToAcceptedMs: warmUp.intakeMs, maxInFlight: warmUp.maxInFlight },
      },
      latencyMs: { healthy: latencyMs, warmUp: latencyOf(warmUpGroups), steady: steady?.steady.latencyMs ?? null },
      receiverAnswers: { healthy: receivers.answers(ids.filter((id) => !submitted.get(id)?.silent)), silent: receivers.answers(silentIds) },
      attempts: { ...attempts, timeoutDurationMs: summarize(timeouts) },
      silentGoal: { results: silentIds.length, failedAfterThreeAttempts: silentIds.filter((id) => reads.get(id)?.state.status === 'failed' && reads.get(id)?.attempts?.length === MAX_ATTEMPTS).length },
      retries: retries.byDelay,
      balance: { atArrivalEnd, final, drainedAtReceivers },
      cpuMsPerDelivery: perUnit(cpu, final.delivered),
      schedulerPerResult,
      peakRssMb,
      problems: [...warmUp.rejected, ...intake.rejected, ...receivers.problems, ...retries.violations],
    };
    const first = latencyMs['204 at once'];
    const targets = {
      [`p99 < ${TARGET_P99_MS} ms at half load (healthy, 204 at once, accepted → recorded)`]: (first.recorded?.p99 ?? Infinity) < TARGET_P99_MS,
      [`every service < ${TARGET_RSS_MB} MB RSS`]: Object.values(peakRssMb).every((mb) => mb < TARGET_RSS_MB),
    };
    print(report, targets);
    console.log(conditions(host));
    writeResult('degraded', { ...report, targets });

    const failures = [
      ...(atArrivalEnd.balanced ? [] : ['submitted ≠ delivered + failed + pending at the end of the arrivals']),
      ...(final.balanced ? [] : ['submitted ≠ delivered + failed + pending after the drain']),
      ...report.problems,
    ];
    if (failures.length > 0) throw new Error(`degraded: ${failures.length} problem(s):\n  ${failures.slice(0, 20).join('\n  ')}`);
  } finally {
    await system.close();
    await Promise.all(servers.map((s) => s.close()));
  }
}

type Intake = { submitted: number; rejected: number; achievedPerSecond: number; dueToAcceptedMs: LatencySummary | null; maxInFlight: number };

type Report = {
  settings: { ratePerSecond: number };
  intake: Intake & { warmUp: Intake };
  latencyMs: { healthy: Record<string, Latency>; warmUp: Record<string, Latency>; steady: Latency | null };
  receiverAnswers: Record<string, Record<string, number>>;
  attempts: { healthy: Record<string, number>; silent: Record<string, number>; exampleMessage: Record<string, string>; timeoutDurationMs: LatencySummary | null };
  silentGoal: { results: number; failedAfterThreeAttempts: number };
  retries: Record<string, object>;
  balance: Record<'atArrivalEnd' | 'final', ReturnType<typeof balance>> & { drainedAtReceivers: boolean };
  cpuMsPerDelivery: Record<string, number>;
  schedulerPerResult: Record<string, SchedulerCounts>;
  peakRssMb: Record<string, number>;
};

function print(r: Report, targets: Record<string, boolean>): void {
  const row = (l: Latency | null) => ({
    n: l?.atReceiver?.count ?? '', 'receiver p50': l?.atReceiver?.p50 ?? '', 'receiver p99': l?.atReceiver?.p99 ?? '',
    'Kafka p50': l?.onKafka?.p50 ?? '', 'Kafka p99': l?.onKafka?.p99 ?? '',
    'recorded p50': l?.recorded?.p50 ?? '', 'recorded p95': l?.recorded?.p95 ?? '', 'recorded p99': l?.recorded?.p99 ?? '',
  });
  const intake = (i: Intake) => `${i.submitted} submitted at ${i.achievedPerSecond}/s (target ${r.settings.ratePerSecond}/s), ${i.rejected} refused; `
    + `due → 201 p50 ${i.dueToAcceptedMs?.p50} ms, p99 ${i.dueToAcceptedMs?.p99} ms; at most ${i.maxInFlight} submissions in flight`;
  console.log(`\nintake: ${intake(r.intake)}\nwarm-up before it: ${intake(r.intake.warmUp)}`);
  console.log('latency, ms, from "accepted by the API" to: the receiver sending its 2xx; the delivered attempt handed to Kafka; the API recording it');
  console.table({
    'steady (full load, one receiver)': row(r.latencyMs.steady),
    ...Object.fromEntries(Object.entries(r.latencyMs.healthy).map(([group, l]) => [`degraded, healthy: ${group}`, row(l)])),
    ...Object.fromEntries(Object.entries(r.latencyMs.warmUp).map(([group, l]) => [`warm-up, healthy: ${group}`, row(l)])),
  });
  console.log('requests, as the receivers answered them');
  console.table(r.receiverAnswers);
  console.log('attempts per outcome, as the API recorded them (outcome · error class · status)');
  const kinds = [...new Set([...Object.keys(r.attempts.healthy), ...Object.keys(r.attempts.silent)])].sort();
  console.table(Object.fromEntries(kinds.map((k) => [k, {
    'healthy goals': r.attempts.healthy[k] ?? 0, 'silent goal': r.attempts.silent[k] ?? 0, 'for example': (r.attempts.exampleMessage[k] ?? '').slice(0, 60),
  }])));
  console.log(`timed-out attempts lasted ${r.attempts.timeoutDurationMs?.p50 ?? '-'} ms (p50), ${r.attempts.timeoutDurationMs?.max ?? '-'} ms (max); `
    + `silent goal: ${r.silentGoal.failedAfterThreeAttempts} of ${r.silentGoal.results} results failed after ${MAX_ATTEMPTS} attempts`);
  console.log('retry gaps (attempt n + 1 started − attempt n ended) minus RETRY_DELAYS_MS');
  console.table(r.retries);
  console.log(`submitted = delivered + failed + pending (from the API's result states)${r.balance.drainedAtReceivers ? '' : '; the receivers did not drain in time'}`);
  console.table(Object.fromEntries((['atArrivalEnd', 'final'] as const).map((k) => {
    const b = r.balance[k];
    return [k === 'final' ? 'after the drain' : 'end of arrivals', { submitted: b.submitted, listed: b.listed, delivered: b.delivered, failed: b.failed, pending: b.pending, other: JSON.stringify(b.other), balanced: b.balanced }];
  })));
  console.table(Object.fromEntries(SERVICES.map((s) => [s, { 'CPU ms / delivery': r.cpuMsPerDelivery[s], 'peak RSS MB': r.peakRssMb[s] }])));
  for (const line of schedulerLines(r.schedulerPerResult, 'result')) console.log(`during the arrivals, ${line}`);
  console.table(Object.fromEntries(Object.entries(targets).map(([target, met]) => [target, { met }])));
}

runScenario(main);
