import { randomUUID } from 'node:crypto';
import { ResultRevised, TOPICS } from '@owd/events';
import { consumedEvents, waitFor } from '@owd/testing';
import { newResultId, revised, revisionContent } from './support/content.factory';
import { bodyOf, PayloadBuilderHarness } from './support/payload-builder.harness';

describe('payload-builder payload content and versions on a real broker and database', () => {
  const h = new PayloadBuilderHarness();
  const workspaceId = randomUUID();

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  describe('content contract and languages', () => {
    it('sends a section type the contract does not list as a content fallback, and listed ones natively', async () => {
      const goalId = await h.goal(workspaceId);
      await h.contract(goalId, workspaceId, { sectionTypes: ['content'] });
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      const body = bodyOf(await h.nextRequested(resultId));
      expect(body['sections']).toEqual([
        { key: 'intro', type: 'content', blocks: [{ type: 'paragraph', text: 'The strike ended on Friday.' }] },
        { key: 'history', type: 'content', fallback_of: 'timeline', blocks: [{ type: 'paragraph', text: 'Tuesday: the strike began.' }] },
      ]);
    });

    it('sends the second language only when the goal switch is on', async () => {
      const on = await h.goal(workspaceId, { secondLanguageEnabled: true, secondLanguage: 'uk' });
      const off = await h.goal(workspaceId, { secondLanguageEnabled: false, secondLanguage: 'uk' });
      const withUk = newResultId();
      const withoutUk = newResultId();
      await h.publish(ResultRevised, revised(on, workspaceId, revisionContent(withUk)));
      await h.publish(ResultRevised, revised(off, workspaceId, revisionContent(withoutUk)));
      const locales = (id: string) => h.nextRequested(id).then((r) => Object.keys(bodyOf(r)['locales'] as object));
      expect(await locales(withUk)).toEqual(['en', 'uk']);
      expect(await locales(withoutUk)).toEqual(['en']);
    });
  });

  describe('versions (§6)', () => {
    it('sends the first delivery as workflow.action with workflow_execution = result_id, and a later revision as cluster.updated', async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      const first = bodyOf(await h.nextRequested(resultId));
      expect(first).toMatchObject({ event: 'workflow.action', workflow_execution: resultId, result_id: resultId, revision: 1 });
      expect(first).not.toHaveProperty('parent_execution');

      const v2 = revisionContent(resultId, {
        revision: 2, workflowExecution: 'exec_2', parentExecution: resultId, newArticles: ['art_2', 'art_2', 'art_3'],
      });
      await h.publish(ResultRevised, revised(goalId, workspaceId, v2));
      const second = await h.nextRequested(resultId, 2);
      expect(second.reason).toBe('revision');
      expect(bodyOf(second)).toMatchObject({
        event: 'cluster.updated', result_id: resultId, revision: 2, workflow_execution: 'exec_2',
        parent_execution: resultId, new_articles: ['art_2', 'art_3'],
      });
    });

    it('sends a text-only change of a result with no previous version with parent_execution null and new_articles []', async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      await h.nextRequested(resultId);
      const edited = revisionContent(resultId, { revision: 2, body: 'The strike ended on Friday. Edited.', newArticles: ['art_9'] });
      await h.publish(ResultRevised, revised(goalId, workspaceId, edited, { textOnlyChange: true }));
      expect(bodyOf(await h.nextRequested(resultId, 2))).toMatchObject({
        event: 'cluster.updated', revision: 2, parent_execution: null, new_articles: [],
      });
    });

    it('freezes one body per revision: the same result.revised delivered twice gives no second delivery.requested', async () => {
      const goalId = await h.goal(workspaceId);
      const resultId = newResultId();
      const envelope = h.envelope(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
      await h.send(ResultRevised, envelope);
      const requested = await h.nextRequested(resultId);
      // result.revised ids are not recorded: each copy reaches the handler, which finds its revision recorded already.
      const handled = () => consumedEvents({ result: 'processed', type: ResultRevised.type });
      const before = await handled();
      await h.send(ResultRevised, envelope);
      await waitFor(async () => (await handled()) > before, { what: 'the redelivered event' });
      // The same revision announced again under a new event id is recognised the same way.
      await h.publish(ResultRevised, envelope.payload);
      await waitFor(async () => (await handled()) > before + 1, { what: 'the revision announced again' });

      const outbox = await h.dataSource.query(
        `SELECT count(*)::int AS n FROM payload_builder.outbox WHERE topic = $1 AND message_key = $2`,
        [h.namer.name(TOPICS.DELIVERY_REQUESTED), resultId]);
      expect(outbox[0].n).toBe(1);
      expect(h.requestedFor(resultId)).toHaveLength(1);
      const [stored] = await h.dataSource.query(`SELECT body_sha256, delivery_id FROM payload_builder.payloads WHERE result_id = $1`, [resultId]);
      expect(stored).toEqual({ body_sha256: requested.bodySha256, delivery_id: requested.deliveryId });
    });
  });
});
