// Arrivals through the API: open loop for the scenarios that submit at a fixed rate (degraded, soak), closed loop for
// the ones that submit as fast as the API answers (steady, intake).
import { basename, dirname, join, relative, resolve } from 'node:path';
import { summarize } from './measure';
import { latestResult, readResult, REPO_ROOT } from './output';
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
 * Open loop: the i-th submission starts at i / rate seconds whether or not earlier ones have been answered. Its article
 * is number `first` + i; `next` is the number after the last, where a call after this one (a warm-up's) starts, so
 * its results have texts of their own. Submissions to `silentGoal` are marked `silent`.
 */
export async function arrive(system: BenchSystem, goalIds: readonly string[], rate: number, seconds: number,
  { silentGoal, first = 0 }: { silentGoal?: string; first?: number } = {}) {
  const total = Math.round(rate * seconds);
  const submitted = new Map<string, Submitted>();
  const rejected: string[] = [];
  const intakeMs: number[] = [];
  let fired = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const calls: Promise<void>[] = [];
  const started = Date.now();
  const submit = async (i: number) => {
    const due = started + (i / rate) * 1000;
    const n = first + i;
    const goalId = goalIds[n % goalIds.length];
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      const id = await system.submit(goalId, n);
      submitted.set(id, { n, goalId, silent: goalId === silentGoal, acceptedAt: Date.now() });
      intakeMs.push(Date.now() - due);
    } catch (err) {
      rejected.push(String(err));
    } finally {
      inFlight--;
    }
  };
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate) + 1);
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
    submitted, rejected, maxInFlight, next: first + total,
    achievedPerSecond: Number((total / ((lastDueAt - started) / 1000)).toFixed(1)),
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
