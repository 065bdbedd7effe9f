// Arrivals through the API: open loop for the scenarios that submit at a fixed rate (degraded, soak), closed loop for
// the ones that submit as fast as the API answers (steady, intake).
import { basename, dirname, join, relative, resolve } from 'node:path';
import { summarize } from './measure';
import { latestResult, readResult, REPO_ROOT, RESULTS_PER_REQUEST } from './output';
import type { BenchSystem } from './system';

/**
 * Seconds of arrivals at the scenario's rate before the measured ones (degraded, hops). In the first 15–20 s of a
 * freshly started system at half of steady's rate every hop takes several times what it takes later (the services
 * compile their hot paths, fill their pools), so a p99 over a cold minute is mostly the start: it is reported apart,
 * not mixed in. The soak warms up likewise, for a minute.
 */
export const WARM_UP_SECONDS = 30;

export interface Submitted {
  n: number;
  goalId: string;
  silent: boolean;
  acceptedAt: number;
}

/** Closed loop: `clients` loops each run `submit(i)` for the next of `first` … `first + count - 1` once its last one ended. */
export async function closedLoop(clients: number, first: number, count: number, submit: (i: number) => Promise<void>): Promise<void> {
  let next = first;
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = next++; i < first + count; i = next++) await submit(i);
  }));
}

/**
 * Open loop: the i-th request starts at i / (rate / RESULTS_PER_REQUEST) seconds whether or not earlier ones have been
 * answered, so results arrive at `rate` a second, one or RESULTS_PER_REQUEST (BENCH_BATCH) to a request. Its articles
 * are numbers `first` + i × RESULTS_PER_REQUEST onwards; `next` is the number after the last, where a call after this
 * one (a warm-up's) starts, so its results have texts of their own. Results handed to `silentGoal` are marked `silent`.
 */
export async function arrive(system: BenchSystem, goalIds: readonly string[], rate: number, seconds: number,
  { silentGoal, first = 0 }: { silentGoal?: string; first?: number } = {}) {
  const perRequest = RESULTS_PER_REQUEST;
  const requestRate = rate / perRequest;
  const total = Math.max(1, Math.round((rate * seconds) / perRequest));
  const submitted = new Map<string, Submitted>();
  const rejected: string[] = [];
  const intakeMs: number[] = [];
  let fired = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const calls: Promise<void>[] = [];
  const started = Date.now();
  const submit = async (i: number) => {
    const due = started + (i / requestRate) * 1000;
    const n = first + i * perRequest;
    const goalId = goalIds[Math.floor(n / perRequest) % goalIds.length];
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      const ids = await system.submitSome(goalId, n, perRequest);
      const acceptedAt = Date.now();
      ids.forEach((id, k) => submitted.set(id, { n: n + k, goalId, silent: goalId === silentGoal, acceptedAt }));
      intakeMs.push(acceptedAt - due);
    } catch (err) {
      rejected.push(String(err));
    } finally {
      inFlight--;
    }
  };
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * requestRate) + 1);
      while (fired < due) calls.push(submit(fired++));
      if (fired >= total) {
        clearInterval(timer);
        done();
      }
    }, 5);
  });
  const lastDueAt = Date.now();
  await Promise.all(calls);
  return {
    submitted, rejected, maxInFlight, next: first + total * perRequest,
    achievedPerSecond: Number(((total * perRequest) / ((lastDueAt - started) / 1000)).toFixed(1)),
    intakeMs: summarize(intakeMs),
  };
}

/** Polls `done` every `intervalMs` until it holds or `timeoutMs` passes; says which. */
export async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return true;
}


/** Rate from the first argument: a number, a steady.json (half its throughput), or the newest steady.json. */
export function arrivalRate<T extends { steady: { deliveredPerSecond: number } }>(arg: string | undefined): { rate: number; steadyFile: string | null; steady: T | null } {
  if (arg !== undefined && /^\d+(\.\d+)?$/.test(arg)) return { rate: Number(arg), steadyFile: null, steady: null };
  const file = arg ?? latestResult('steady');
  if (!file) throw new Error('no steady result to take the rate from: run `npm run bench -- steady` first, or give a rate (results per second)');
  const steady = readResult<T>(file);
  // Recorded in the results: relative to the repository, or the run folder and file where it lies outside.
  const inRepo = relative(REPO_ROOT, resolve(file));
  const steadyFile = inRepo.startsWith('..') ? join(basename(dirname(resolve(file))), basename(file)) : inRepo;
  return { rate: Number((steady.steady.deliveredPerSecond / 2).toFixed(1)), steadyFile, steady };
}
