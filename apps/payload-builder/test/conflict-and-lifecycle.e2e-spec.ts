import { randomUUID } from 'node:crypto';
import { DeliveryAttempted, ResultApproved, ResultFieldsSet, ResultRevised } from '@owd/events';
import { waitFor } from '@owd/testing';
import { conflictAttempt, newResultId, revised, revisionContent } from './support/content.factory';
import { bodyOf, PayloadBuilderHarness } from './support/payload-builder.harness';

const MAX_CONFLICT_RESENDS = 2;

describe('payload-builder 409 re-sends and event-sourced lifecycle on a real broker and database', () => {
  const h = new PayloadBuilderHarness();
  const workspaceId = randomUUID();

  beforeAll(() => h.start({ MAX_CONFLICT_RESENDS: String(MAX_CONFLICT_RESENDS) }));
  afterAll(() => h.stop());

  describe('409 conflicts (§3, §7)', () => {
    it('re-sends the same content as revision max(N, current) + 1 in a new frozen payload', async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      const first = await h.nextRequested(resultId);
      await h.publish(DeliveryAttempted, conflictAttempt(first, 4));

      const resent = await h.nextRequested(resultId, 2);
      expect(resent).toMatchObject({ revision: 5, reason: 'conflict' });
      expect(resent.deliveryId).not.toBe(first.deliveryId);
      const before = bodyOf(first);
      const after = bodyOf(resent);
      expect(after).toMatchObject({ event: 'cluster.updated', result_id: resultId, revision: 5, parent_execution: null, new_articles: [] });
      expect(after['locales']).toEqual(before['locales']);
      expect(after['sections']).toEqual(before['sections']);
      await h.status(resultId, 'queued', 5);
    });

    it('reports on result.status which announced content each revision carries, so manifest-api learns the re-send\'s number', async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      await h.publish(DeliveryAttempted, conflictAttempt(await h.nextRequested(resultId), 5));
      await h.status(resultId, 'queued', 6);
      // Announced before manifest-api heard of the re-send: it takes the next free number.
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId, { revision: 2, title: 'Changed' })));
      await h.status(resultId, 'queued', 7);

      expect(h.statusesFor(resultId).map((s) => [s.status, s.revision, s.announcedRevision])).toEqual([
        ['queued', 1, 1], ['queued', 6, 1], ['queued', 7, 2],
      ]);
    });

    it('ignores a 409 for a delivery a newer revision has superseded', async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      const first = await h.nextRequested(resultId);
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId, { revision: 2, title: 'Newer' })));
      await h.nextRequested(resultId, 2);

      await h.handled((await h.publish(DeliveryAttempted, conflictAttempt(first, 3))).eventId);
      expect(h.requestedFor(resultId)).toHaveLength(2);
      const [row] = await h.dataSource.query(`SELECT revision, conflicts FROM payload_builder.results WHERE result_id = $1`, [resultId]);
      expect(row).toEqual({ revision: 2, conflicts: 0 });
    });

    it(`stops after ${MAX_CONFLICT_RESENDS} re-sends and rejects the result naming the 409s`, async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      let latest = await h.nextRequested(resultId);
      for (let resend = 1; resend <= MAX_CONFLICT_RESENDS; resend++) {
        await h.publish(DeliveryAttempted, conflictAttempt(latest, latest.revision));
        latest = await h.nextRequested(resultId, resend + 1);
        expect(latest.revision).toBe(resend + 1);
      }
      const last = await h.publish(DeliveryAttempted, conflictAttempt(latest, latest.revision));
      const rejected = await h.status(resultId, 'rejected');
      expect(rejected.reason).toBe(`receiver answered 409 ${MAX_CONFLICT_RESENDS + 1} times; stopped after ${MAX_CONFLICT_RESENDS} re-sends`);
      await h.handled(last.eventId);
      expect(h.requestedFor(resultId)).toHaveLength(MAX_CONFLICT_RESENDS + 1);
    });
  });

  describe('event-sourced lifecycle', () => {
    it('records every change in a result\'s life as append-only rows, in order', async () => {
      const goalId = await h.goal(workspaceId, { sendImmediately: false });
      const fields = [{ key: 'desk', label: 'Desk', type: 'text' as const, required: true, multiple: false }];
      await h.contract(goalId, workspaceId, { fields });
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      await h.status(resultId, 'needs_approval');
      await h.publish(ResultFieldsSet, { resultId, goalId, values: { desk: 'Harbour' } });
      await h.status(resultId, 'awaiting_approval');
      await h.publish(ResultApproved, { resultId, goalId, revision: 1 });
      await h.publish(DeliveryAttempted, conflictAttempt(await h.nextRequested(resultId), 1));
      await h.nextRequested(resultId, 2);

      const rows: { seq: number; type: string }[] = await h.dataSource.query(
        `SELECT seq, type FROM payload_builder.result_events WHERE result_id = $1 ORDER BY seq`, [resultId]);
      expect(rows.map((r) => r.type)).toEqual([
        'revised', 'needs-approval', 'fields-set', 'awaiting-approval', 'approved', 'frozen', 'conflict-resend', 'frozen',
      ]);
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      await expect(h.dataSource.query(`DELETE FROM payload_builder.result_events WHERE result_id = $1`, [resultId]))
        .rejects.toThrow(/append-only/);
    });

    it('rebuilds the results projection from result_events to exactly the state it started from', async () => {
      // Results in every state, next to the ones the tests above left behind.
      const waiting = await h.goal(workspaceId, { sendImmediately: false });
      const strict = await h.goal(workspaceId);
      const fields = [{ key: 'desk', label: 'Desk', type: 'text' as const, required: true, multiple: false }];
      await h.contract(strict, workspaceId, { fields });
      const needsField = newResultId();
      await h.publish(ResultRevised, revised(strict, workspaceId, revisionContent(needsField)));
      await h.status(needsField, 'needs_approval');
      const pending = newResultId();
      await h.handled((await h.publish(ResultRevised, revised(randomUUID(), workspaceId, revisionContent(pending)))).eventId);
      const approvedLater = newResultId();
      await h.publish(ResultRevised, revised(waiting, workspaceId, revisionContent(approvedLater)));
      const awaiting = newResultId();
      await h.publish(ResultRevised, revised(waiting, workspaceId, revisionContent(awaiting)));
      await h.publish(ResultApproved, { resultId: approvedLater, goalId: waiting, revision: 1 });
      await h.nextRequested(approvedLater);
      // Each result's decision, not only the last one published: they are on different partitions.
      await h.status(awaiting, 'awaiting_approval');
      await waitFor(async () => {
        const [{ n }] = await h.dataSource.query(`SELECT count(*)::int AS n FROM payload_builder.outbox WHERE published_at IS NULL`);
        return n === 0;
      }, { what: 'a quiet service' });

      const snapshot = () => h.dataSource.query(`SELECT * FROM payload_builder.results ORDER BY result_id`);
      const before = await snapshot();
      expect(new Set(before.map((r: { status: string }) => r.status))).toEqual(new Set(['queued', 'awaiting_approval', 'needs_approval', 'pending', 'rejected']));
      // Damage the projection, so the rebuild has something to restore.
      await h.dataSource.query(`DELETE FROM payload_builder.results WHERE result_id = $1`, [approvedLater]);
      await h.dataSource.query(`UPDATE payload_builder.results SET status = 'new', conflicts = 99`);

      const { runProjectionRebuild } = await import('../src/app/projections/rebuild.command');
      const summary = await runProjectionRebuild();
      expect(summary.results).toBe(before.length);
      expect(await snapshot()).toEqual(before);
    });

  });
});
