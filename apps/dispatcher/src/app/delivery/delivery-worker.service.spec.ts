import { randomUUID } from 'node:crypto';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { waitFor } from '@owd/testing';
import type { AttemptResult } from '@owd/http-delivery';
import type { AttemptRecorder, RecordedAttempt } from './attempt-recorder.service';
import type { AttemptSender } from './attempt-sender.service';
import { systemClock } from './clock';
import { DeliveryWorker } from './delivery-worker.service';
import type { DeliverySettings } from './delivery.settings';
import type { ClaimedWork, ClaimRequest, WorkQueue } from './work-queue.repository';

const ORIGIN = 'https://hooks.example';
/** Longer than any test here runs: work that waits for the poll never starts. */
const NEVER_MS = 600_000;

const settings: DeliverySettings = {
  policy: { allowCidrs: [] }, attemptTimeoutMs: 1_000, retryDelaysMs: [60_000, 300_000], concurrency: 64, perOrigin: 4, perOriginMax: 16,
  pollMs: NEVER_MS, devSinkUrl: null, maxResponseBytes: 1024, leaseMs: 31_000, goalWaitMs: 1_000, workerId: 'spec',
};

function due(originKey: string): ClaimedWork {
  const deliveryId = randomUUID();
  const body = Buffer.from('{}');
  return {
    deliveryId, series: 1, attempt: 1, claimToken: randomUUID(), claims: 1, causationId: null, originKey, traceContext: {},
    delivery: { deliveryId, resultId: 'res_1', goalId: 'goal_1', revision: 1, body, bodySha256: '', correlationId: 'c', createdAt: new Date(), goalVersion: 1 },
    goal: { goalId: 'goal_1', version: 1, deleted: false, recipientUrl: `${originKey}/in`, deliveryMode: 'production', secretCiphertext: null, workspaceId: null },
  };
}

/** The table's due rows, claimed as WorkQueue.claim does: oldest first, within the overall limit and each origin's room. */
class QueueInMemory {
  readonly requests: ClaimRequest[] = [];
  constructor(public rows: ClaimedWork[]) {}

  async claim(request: ClaimRequest): Promise<ClaimedWork[]> {
    this.requests.push(structuredClone(request));
    const taken: ClaimedWork[] = [];
    const byOrigin = new Map<string, number>();
    for (const row of this.rows) {
      const n = byOrigin.get(row.originKey) ?? 0;
      if (taken.length >= request.limit || n >= (request.freeByOrigin[row.originKey] ?? request.perOrigin)) continue;
      byOrigin.set(row.originKey, n + 1);
      taken.push(row);
    }
    this.rows = this.rows.filter((row) => !taken.includes(row));
    return taken;
  }

  async release(work: readonly ClaimedWork[]): Promise<void> {
    this.rows.unshift(...work);
  }

  async depth(): Promise<number> {
    return this.rows.length;
  }
}

/** A receiver answering 204 at once. */
const sender = {
  async send(): Promise<AttemptResult> {
    return {
      status: 204, headers: {}, body: '', bodyBytes: Buffer.alloc(0), bodyTruncated: false, durationMs: 1, outcome: 'delivered',
      errorClass: null, errorMessage: null, conflictRevision: null, targetHost: 'hooks.example', refusedRule: null,
    };
  },
};

class Recorder {
  readonly recorded: string[] = [];
  async record(work: ClaimedWork): Promise<RecordedAttempt> {
    this.recorded.push(work.deliveryId);
    return { payload: {} as RecordedAttempt['payload'], settlement: { status: 'delivered', final: true, nextAttemptAt: null } };
  }
}

describe('DeliveryWorker: a backlog in the table', () => {
  let worker: DeliveryWorker | undefined;

  // A line per attempt is the service's log, not this test's.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  afterEach(async () => {
    await worker?.beforeApplicationShutdown();
    worker = undefined;
  });

  function startWorker(queue: QueueInMemory, recorder: Recorder): DeliveryWorker {
    worker = new DeliveryWorker(
      settings, systemClock, queue as unknown as WorkQueue, sender as unknown as AttemptSender, recorder as unknown as AttemptRecorder,
    );
    worker.onApplicationBootstrap();
    return worker;
  }

  it("drains a fast origin's backlog claim after claim, each woken by its answers, never waiting for the poll", async () => {
    const queue = new QueueInMemory(Array.from({ length: 400 }, () => due(ORIGIN)));
    const recorder = new Recorder();
    startWorker(queue, recorder);
    await waitFor(() => recorder.recorded.length === 400, { what: 'all 400 attempts recorded without a poll' });
    expect(queue.rows).toHaveLength(0);
    // Answered at once while all its slots were in use, the origin got more slots; holding nothing between two
    // claims, it then claimed all it may hold (more than a new origin's two floors), not what a new origin may.
    const newOrigin = 2 * settings.perOrigin;
    expect(queue.requests.some((r) => (r.freeByOrigin[ORIGIN] ?? newOrigin) > newOrigin)).toBe(true);
  });

  it('wakes for each origin whose claim took all it may hold, whichever origin answers', async () => {
    const other = 'https://other.example';
    const queue = new QueueInMemory([...Array.from({ length: 100 }, () => due(ORIGIN)), ...Array.from({ length: 100 }, () => due(other))]);
    const recorder = new Recorder();
    startWorker(queue, recorder);
    await waitFor(() => recorder.recorded.length === 200, { what: 'both backlogs recorded without a poll' });
    expect(queue.rows).toHaveLength(0);
  });
});
