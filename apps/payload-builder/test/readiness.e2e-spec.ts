import { createHash, randomUUID } from 'node:crypto';
import { GoalChanged, ResultApproved, ResultFieldsSet, ResultRevised } from '@owd/events';
import { waitFor } from '@owd/testing';
import { goalSnapshot, newResultId, revised, revisionContent } from './support/content.factory';
import { bodyOf, PayloadBuilderHarness } from './support/payload-builder.harness';

describe('payload-builder readiness (§3) on a real broker and database', () => {
  const h = new PayloadBuilderHarness();
  const workspaceId = randomUUID();

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it('freezes and hands over a revision at once when the goal sends immediately, and announces it as queued', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: true });
    const resultId = newResultId();
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));

    const requested = await h.nextRequested(resultId);
    expect(requested).toMatchObject({ resultId, goalId, revision: 1, reason: 'first', executedAt: '2026-11-21T10:00:00.000Z', goalVersion: expect.any(Number) });
    const body = Buffer.from(requested.bodyBase64, 'base64');
    expect(createHash('sha256').update(body).digest('hex')).toBe(requested.bodySha256);
    expect(bodyOf(requested)).toMatchObject({ payload_version: 5, event: 'workflow.action', result_id: resultId, revision: 1, publish_mode: 'draft' });
    const queued = await h.status(resultId, 'queued');
    expect(queued).toMatchObject({ revision: 1, deliveryId: requested.deliveryId, missingFields: [] });
    // The freeze record holds the digest; the bytes live with the dispatcher (they travel on delivery.requested).
    const [stored] = await h.dataSource.query(`SELECT body_sha256, delivery_id FROM payload_builder.payloads WHERE result_id = $1`, [resultId]);
    expect(stored).toEqual({ body_sha256: requested.bodySha256, delivery_id: requested.deliveryId });
  });

  it('holds an unapproved revision as awaiting_approval and sends it once result.approved arrives', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: false });
    const resultId = newResultId();
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
    const awaiting = await h.status(resultId, 'awaiting_approval');
    expect(awaiting.reason).toMatch(/approval/);
    expect(h.requestedFor(resultId)).toHaveLength(0);

    await h.publish(ResultApproved, { resultId, goalId, revision: 1, approvedBy: 'editor@example.com' });
    const requested = await h.nextRequested(resultId);
    expect(requested.revision).toBe(1);
    await h.status(resultId, 'queued');
  });

  it('puts a result whose required receiver field is empty into needs_approval naming the field, and sends it when the value is set', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: true, fieldDefaults: { section: 'news' } });
    const fields = [
      { key: 'desk', label: 'Desk', type: 'text' as const, required: true, multiple: false },
      { key: 'section', label: 'Section', type: 'enum' as const, required: true, multiple: false, options: [{ value: 'news', label: 'News' }] },
    ];
    await h.contract(goalId, workspaceId, { fields });
    const resultId = newResultId();
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));

    const needs = await h.status(resultId, 'needs_approval');
    expect(needs.missingFields).toEqual(['desk']);
    expect(needs.reason).toContain('desk');
    expect(h.requestedFor(resultId)).toHaveLength(0);

    await h.publish(ResultFieldsSet, { resultId, goalId, values: { desk: 'Economy' } });
    const requested = await h.nextRequested(resultId);
    expect(bodyOf(requested)['fields']).toEqual({ desk: 'Economy', section: 'news' });
  });

  /** A goal that waits for approval, whose receiver requires a desk. */
  async function goalRequiringDesk(): Promise<string> {
    const goalId = await h.goal(workspaceId, { sendImmediately: false });
    await h.contract(goalId, workspaceId, { fields: [{ key: 'desk', label: 'Desk', type: 'text', required: true, multiple: false }] });
    return goalId;
  }

  it('keeps receiver field values set before the content arrives: the revision carries the older, empty set', async () => {
    const goalId = await goalRequiringDesk();
    const resultId = newResultId();
    // manifest-api: the result is accepted (its revision carries the values it has then: none, version 0), then the
    // values are set (version 1). The two topics are not ordered with each other: here the values come first.
    const set = await h.publish(ResultFieldsSet, { resultId, goalId, values: { desk: 'Sports' }, fieldValuesVersion: 1 });
    await h.handled(set.eventId);
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId), { fieldValues: {}, fieldValuesVersion: 0 }));

    await h.status(resultId, 'awaiting_approval');
    const [row] = await h.dataSource.query(`SELECT field_values, field_values_version FROM payload_builder.results WHERE result_id = $1`, [resultId]);
    expect(row).toEqual({ field_values: { desk: 'Sports' }, field_values_version: 1 });
  });

  it('takes the values a revision carries when they are newer than the last set it has seen', async () => {
    const goalId = await goalRequiringDesk();
    const resultId = newResultId();
    const first = await h.publish(ResultFieldsSet, { resultId, goalId, values: { desk: 'Sports' }, fieldValuesVersion: 1 });
    await h.handled(first.eventId);
    // The values were set again (version 2) and the content revised; the revision is here before the second set.
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId), { fieldValues: { desk: 'Politics' }, fieldValuesVersion: 2 }));
    await h.status(resultId, 'awaiting_approval');
    const late = await h.publish(ResultFieldsSet, { resultId, goalId, values: { desk: 'Politics' }, fieldValuesVersion: 2 });
    await h.handled(late.eventId);
    const stale = await h.publish(ResultFieldsSet, { resultId, goalId, values: { desk: 'Sports' }, fieldValuesVersion: 1 });
    await h.handled(stale.eventId);

    await h.publish(ResultApproved, { resultId, goalId, revision: 1 });
    const requested = await h.nextRequested(resultId);
    expect(bodyOf(requested)['fields']).toEqual({ desk: 'Politics' });
  });

  it('keeps a result whose goal is not known yet pending and sends it when the goal arrives', async () => {
    const goalId = randomUUID();
    const resultId = newResultId();
    const env = await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
    await h.handled(env.eventId);
    const [row] = await h.dataSource.query(`SELECT status FROM payload_builder.results WHERE result_id = $1`, [resultId]);
    expect(row.status).toBe('pending');
    expect(h.requestedFor(resultId)).toHaveLength(0);

    await h.publish(GoalChanged, goalSnapshot(goalId, workspaceId, { sendImmediately: true, name: 'Late goal' }));
    const requested = await h.nextRequested(resultId);
    expect(bodyOf(requested)['workflow_name']).toBe('Late goal');
  });

  it('ignores a goal snapshot older than the one it holds', async () => {
    const goalId = await h.goal(workspaceId, { version: 5, sendImmediately: false, name: 'Current' });
    const stale = await h.publish(GoalChanged, goalSnapshot(goalId, workspaceId, { version: 4, sendImmediately: true, name: 'Stale' }));
    await h.handled(stale.eventId);
    const resultId = newResultId();
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
    await h.status(resultId, 'awaiting_approval');
    const [held] = await h.dataSource.query(`SELECT version, name FROM payload_builder.goals WHERE goal_id = $1`, [goalId]);
    expect(held).toEqual({ version: 5, name: 'Current' });
  });

  it('rejects the waiting results of a goal that was deleted', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: false });
    const resultId = newResultId();
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
    await h.status(resultId, 'awaiting_approval');

    await h.publish(GoalChanged, goalSnapshot(goalId, workspaceId, { version: 2, deleted: true }));
    const rejected = await h.status(resultId, 'rejected');
    expect(rejected.reason).toMatch(/deleted/);
  });

  it('rejects a revision the builder refuses (second language on, no content for it) with the typed reason', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: true, secondLanguageEnabled: true, secondLanguage: 'de' });
    const resultId = newResultId();
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
    const rejected = await h.status(resultId, 'rejected');
    expect(rejected.reason).toMatch(/SecondLanguageMissingError \(second_language_missing\)/);
    expect(h.requestedFor(resultId)).toHaveLength(0);
  });

  it('rejects a revision whose body would be over 2 MiB, with both sizes, and sends nothing for it', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: true });
    const resultId = newResultId();
    // ~900 KB of markdown: within what the API takes, a body of ~3 MB once rendered and carried twice.
    const body = 'Grain prices fell for a third week, and traders watch export quotas.\n\n'.repeat(13_000);
    await h.publish(ResultRevised, revised(goalId, workspaceId, { ...revisionContent(resultId), body }));
    const rejected = await h.status(resultId, 'rejected');
    expect(rejected.reason).toMatch(/PayloadInputError \(body_too_large\): the body would be \d+ bytes; at most 2097152/);
    expect(h.requestedFor(resultId)).toHaveLength(0);
  });

  it('rejects content that is not a result revision instead of crashing the consumer', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: true });
    const resultId = newResultId();
    await h.publish(ResultRevised, { resultId, goalId, workspaceId, revision: 1, textOnlyChange: false, content: { title: 'only a title' } });
    const rejected = await h.status(resultId, 'rejected');
    expect(rejected.reason).toMatch(/content\.resultId must be a string/);
  });

  it('parks a poison message on result.revised in result.revised.dlq and goes on with the partition', async () => {
    const goalId = await h.goal(workspaceId, { sendImmediately: true });
    const resultId = newResultId();
    const poison = h.envelope(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));
    const broken = { ...poison, payload: { ...poison.payload, goalId: 'not-a-uuid' } };
    // Same key, so the same partition: the good revision comes after the poison one.
    await h.send(ResultRevised, broken);
    await h.publish(ResultRevised, revised(goalId, workspaceId, revisionContent(resultId)));

    await h.nextRequested(resultId);
    const parked = await waitFor(() => h.parked.find((m) => m.key === resultId), { what: 'the parked message' });
    expect(parked.reason).toMatch(/goalId/);
    expect(JSON.parse(parked.value).eventId).toBe(poison.eventId);
  });
});
