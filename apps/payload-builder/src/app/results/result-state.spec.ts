import type { ResultEvent, ResultEventData } from './result-event.types';
import { applyResultEvent, emptyProjection, type ResultProjection } from './result-state';

const goalId = 'b3c1f7a0-6a8e-4c53-a2d5-0f1e9a4b7c21';
const workspaceId = '5e2d8c40-1b7a-4f6e-9c3d-8a0b2e4f6a18';

function fold(events: ResultEventData[]): ResultProjection {
  return events.reduce<ResultProjection>(
    (state, data, i) => applyResultEvent(state, { resultId: 'r', seq: i + 1, data, occurredAt: new Date(1_000 * (i + 1)), causedBy: null } satisfies ResultEvent),
    emptyProjection('r'),
  );
}

const revised = (revision: number): ResultEventData => ({
  type: 'revised', revision, upstreamRevision: revision, goalId, workspaceId, textOnlyChange: false, content: { revision },
});

describe('applyResultEvent', () => {
  it('records approval and field values that arrive before the content', () => {
    const state = fold([
      { type: 'approved', revision: 1, goalId },
      { type: 'fields-set', goalId, values: { desk: 'city' } },
      revised(1),
    ]);
    expect(state).toMatchObject({ goalId, revision: 1, approvedRevision: 1, fieldValues: { desk: 'city' }, state: 'new', lastSeq: 3 });
  });

  it('replaces the per-result field values with each saved set', () => {
    const state = fold([
      { type: 'fields-set', goalId, values: { desk: 'city', topic: 'a' } },
      { type: 'fields-set', goalId, values: { desk: 'harbour' } },
    ]);
    expect(state.fieldValues).toEqual({ desk: 'harbour' });
    expect(fold([{ ...revised(1), fieldValues: { desk: 'x' } } as ResultEventData, revised(2)]).fieldValues).toEqual({ desk: 'x' });
  });

  it('keeps the newer set of field values whichever event comes last: a revision carries the set it was accepted with', () => {
    const carrying = (revision: number, fieldValues: Record<string, unknown>, fieldValuesVersion: number): ResultEventData =>
      ({ ...revised(revision), fieldValues, fieldValuesVersion } as ResultEventData);
    const saved = (values: Record<string, unknown>, version: number): ResultEventData => ({ type: 'fields-set', goalId, values, version });
    // Saved after the result was accepted, but consumed first: the revision's empty set (version 0) is older.
    expect(fold([saved({ desk: 'sports' }, 1), carrying(1, {}, 0)])).toMatchObject({ fieldValues: { desk: 'sports' }, fieldValuesVersion: 1 });
    // The revision was accepted after a second save that is still on its way: its set is newer, and the late save equal.
    expect(fold([saved({ desk: 'a' }, 1), carrying(2, { desk: 'b' }, 2), saved({ desk: 'b' }, 2)]))
      .toMatchObject({ fieldValues: { desk: 'b' }, fieldValuesVersion: 2 });
    expect(fold([carrying(2, { desk: 'b' }, 2), saved({ desk: 'a' }, 1)])).toMatchObject({ fieldValues: { desk: 'b' }, fieldValuesVersion: 2 });
    // Events written before versions existed replace the set, as they did then.
    expect(fold([saved({ desk: 'a' }, 1), { ...revised(2), fieldValues: { desk: 'old' } } as ResultEventData]).fieldValues).toEqual({ desk: 'old' });
    expect(fold([saved({ desk: 'a' }, 3), { type: 'fields-set', goalId, values: { desk: 'old' } }])).toMatchObject({ fieldValues: { desk: 'old' }, fieldValuesVersion: 3 });
  });

  it('never lowers the approved revision', () => {
    expect(fold([{ type: 'approved', revision: 3, goalId }, { type: 'approved', revision: 2, goalId }]).approvedRevision).toBe(3);
  });

  it('moves through the readiness states and remembers which revision each was decided for', () => {
    const state = fold([
      revised(1),
      { type: 'needs-approval', revision: 1, reason: 'desk', missingFields: ['desk'] },
    ]);
    expect(state).toMatchObject({ state: 'needs_approval', stateRevision: 1, missingFields: ['desk'] });
    const sent = applyResultEvent(state, {
      resultId: 'r', seq: 3, occurredAt: new Date(9_000), causedBy: null,
      data: { type: 'frozen', revision: 1, deliveryId: 'd1', bodySha256: 'x', event: 'workflow.action', reason: 'first', reasonText: 'queued' },
    });
    expect(sent).toMatchObject({ state: 'queued', missingFields: [], frozenRevisions: [1], lastDeliveryId: 'd1', updatedAt: new Date(9_000) });
  });

  it('a 409 re-send moves to the new revision, carries the approval and counts the conflict', () => {
    const state = fold([
      revised(1),
      { type: 'frozen', revision: 1, deliveryId: 'd1', bodySha256: 'x', event: 'workflow.action', reason: 'first', reasonText: 'q' },
      { type: 'conflict-resend', deliveryId: 'd1', conflictRevision: 4, revision: 5, conflicts: 1 },
    ]);
    expect(state).toMatchObject({ revision: 5, upstreamRevision: 1, approvedRevision: 5, conflicts: 1, conflictRevision: 5, frozenRevisions: [1] });
  });

  it('is pure: the same events fold to the same projection', () => {
    const events = [revised(1), { type: 'rejected', revision: 1, reason: 'no', conflicts: 4 } as const];
    expect(fold(events)).toEqual(fold(events));
    expect(fold(events)).toMatchObject({ state: 'rejected', stateReason: 'no', conflicts: 4 });
  });
});
