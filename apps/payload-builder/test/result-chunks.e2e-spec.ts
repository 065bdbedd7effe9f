import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ResultApproved, ResultRevised, type EventDefinition } from '@owd/events';
import type { ChunkEvent } from '@owd/kafka';
import { ResultWorkflowService } from '../src/app/results/result-workflow.service';
import { newResultId, revised, revisionContent } from './support/content.factory';
import { PayloadBuilderHarness } from './support/payload-builder.harness';

describe('payload-builder handles a chunk of result events in one transaction, on a real database', () => {
  const h = new PayloadBuilderHarness();
  const workspaceId = randomUUID();
  let workflow: ResultWorkflowService;

  beforeAll(async () => {
    await h.start();
    workflow = h.app.get(ResultWorkflowService);
  });
  afterAll(() => h.stop());

  const chunkEvent = <T extends object>(definition: EventDefinition<T>, payload: T): ChunkEvent => ({
    envelope: h.envelope(definition, payload), trace: {},
  });

  /** Runs the chunk as the consumer does (in one transaction) and counts the statements it sent, COMMIT included. */
  async function runChunk(events: ChunkEvent[]): Promise<number> {
    let statements = 0;
    await h.dataSource.transaction(async (manager: EntityManager) => {
      const runner = manager.queryRunner;
      if (!runner) throw new Error('no query runner');
      const query = runner.query.bind(runner);
      runner.query = ((...args: Parameters<typeof query>) => {
        statements += 1;
        return query(...args);
      }) as typeof runner.query;
      await workflow.onChunk(manager, events);
    });
    return statements;
  }

  it('costs the same handful of statements for 5 first revisions as for 40', async () => {
    const goalId = await h.goal(workspaceId);
    const chunk = (n: number): ChunkEvent[] => Array.from({ length: n }, () =>
      chunkEvent(ResultRevised, revised(goalId, workspaceId, revisionContent(newResultId()))));
    const small = chunk(5);
    const large = chunk(40);

    const forSmall = await runChunk(small);
    const forLarge = await runChunk(large);

    // The goals' and the results' locks; the goals' settings and the results' rows; then result_events, results,
    // payloads and outbox in one statement (deferred writes); COMMIT.
    expect(forSmall).toBe(4);
    expect(forLarge).toBe(forSmall);
    for (const { envelope } of [...small, ...large]) {
      const resultId = (envelope.payload as { resultId: string }).resultId;
      expect((await h.nextRequested(resultId)).revision).toBe(1);
    }
    const [{ frozen }] = await h.dataSource.query(
      `SELECT count(*)::int AS frozen FROM payload_builder.results WHERE goal_id = $1 AND frozen_revisions = '{1}' AND status = 'queued'`, [goalId],
    );
    expect(frozen).toBe(45);
  });

  it('applies several events of one result in chunk order: a revision waits for approval, then its approval sends it once', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: false });
    const resultId = newResultId();

    await runChunk([
      chunkEvent(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId))),
      chunkEvent(ResultApproved, { resultId, goalId, revision: 1, approvedBy: 'editor@example.com' }),
      chunkEvent(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId))), // the same announcement again
    ]);

    expect((await h.nextRequested(resultId)).revision).toBe(1);
    const events: { seq: number; type: string }[] = await h.dataSource.query(
      `SELECT seq, type FROM payload_builder.result_events WHERE result_id = $1 ORDER BY seq`, [resultId],
    );
    expect(events.map((e) => e.type)).toEqual(['revised', 'awaiting-approval', 'approved', 'frozen']);
    const [row] = await h.dataSource.query(`SELECT last_seq, status FROM payload_builder.results WHERE result_id = $1`, [resultId]);
    expect(row).toEqual({ last_seq: 4, status: 'queued' });
    expect((await h.dataSource.query(`SELECT 1 FROM payload_builder.payloads WHERE result_id = $1`, [resultId])).length).toBe(1);
  });

  it('refuses to freeze a revision a second time: the chunk rolls back and nothing of it is written', async () => {
    const goalId = await h.goal(workspaceId);
    const resultId = newResultId();
    // A freeze record the projection does not know of (as if the two had been changed apart).
    await h.dataSource.query(
      `INSERT INTO payload_builder.payloads (result_id, revision, delivery_id, goal_id, event, reason, body_sha256, executed_at, frozen_at)
       VALUES ($1, 1, $2, $3, 'workflow.action', 'first', 'x', now(), now())`, [resultId, randomUUID(), goalId],
    );

    await expect(runChunk([chunkEvent(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)))]))
      .rejects.toThrow(`already frozen, not frozen again: ${resultId} revision 1`);
    expect(await h.dataSource.query(`SELECT 1 FROM payload_builder.result_events WHERE result_id = $1`, [resultId])).toEqual([]);
    expect(await h.dataSource.query(`SELECT 1 FROM payload_builder.results WHERE result_id = $1`, [resultId])).toEqual([]);
  });
});
