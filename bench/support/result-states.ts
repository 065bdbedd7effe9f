// Reading results back through the API: their state (the API's projection of the delivery events) and attempts.
import type { ApiClient } from '../../e2e/system/support/api-client';

export interface AttemptRead {
  attempt: number;
  status: number | null;
  outcome: string;
  errorClass: string | null;
  errorMessage: string | null;
  durationMs: number;
  attemptedAt: string;
  endedAt: string;
  nextAttemptAt: string | null;
  final: boolean;
}

export interface ResultRead {
  id: string;
  goalId: string;
  /** `updatedAt`: when the API recorded this state (its projection of the event committed). */
  state: { status: string; updatedAt: string };
  attempts?: AttemptRead[];
}

/** States a result passes through on its way to `delivered` or `failed` (docs/api.md, "State and attempts"). */
export const PENDING_STATES = ['received', 'queued', 'delivering', 'retry_scheduled', 'retry_requested'] as const;

export interface StateCount {
  /** Results the API lists for the goals. */
  listed: number;
  delivered: number;
  failed: number;
  pending: number;
  /** Results in any other state (needs_approval, rejected, …): none is expected here. */
  other: Record<string, number>;
}

interface ResultPage {
  data: ResultRead[];
  nextCursor: string | null;
}

/** Every result of the goals, paged through `GET /goals/{id}/results` by its cursor (state, no content). */
export async function listResults(api: ApiClient, goalIds: readonly string[]): Promise<ResultRead[]> {
  const all: ResultRead[] = [];
  for (const goalId of goalIds) {
    for (let cursor: string | null = ''; cursor !== null;) {
      const page: ResultPage = await api.call<ResultPage>('GET', `/goals/${goalId}/results?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.data);
      cursor = page.nextCursor;
    }
  }
  return all;
}

export function countStates(results: readonly ResultRead[]): StateCount {
  const count: StateCount = { listed: results.length, delivered: 0, failed: 0, pending: 0, other: {} };
  for (const { state } of results) {
    if (state.status === 'delivered') count.delivered++;
    else if (state.status === 'failed') count.failed++;
    else if ((PENDING_STATES as readonly string[]).includes(state.status)) count.pending++;
    else count.other[state.status] = (count.other[state.status] ?? 0) + 1;
  }
  return count;
}

/** `GET /results/{id}` for each id (state and every attempt), `concurrency` at a time. */
export async function readResults(api: ApiClient, ids: readonly string[], concurrency = 8): Promise<Map<string, ResultRead>> {
  const reads = new Map<string, ResultRead>();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < ids.length) {
      const id = ids[next++];
      reads.set(id, await api.call<ResultRead>('GET', `/results/${id}`));
    }
  }));
  return reads;
}

/**
 * Reads the results until every one satisfies `settled` (re-reading only the others, every `intervalMs`) or
 * `timeoutMs` passes; returns the last read of each.
 */
export async function readUntil(
  api: ApiClient, ids: readonly string[], settled: (r: ResultRead) => boolean, { timeoutMs, intervalMs = 500 }: { timeoutMs: number; intervalMs?: number },
): Promise<{ reads: Map<string, ResultRead>; allSettled: boolean }> {
  const reads = new Map<string, ResultRead>();
  const deadline = Date.now() + timeoutMs;
  let open = [...ids];
  for (;;) {
    for (const [id, read] of await readResults(api, open)) reads.set(id, read);
    open = open.filter((id) => !settled(reads.get(id) as ResultRead));
    if (open.length === 0 || Date.now() >= deadline) return { reads, allSettled: open.length === 0 };
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
