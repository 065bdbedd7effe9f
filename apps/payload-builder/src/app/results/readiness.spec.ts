import type { ReceiverField } from '@owd/payload';
import type { GoalSnapshot } from '../goals/goal.types';
import { decideReadiness, type ReadinessInput } from './readiness';

const goalId = '0b7c3a52-4f3e-4d0e-9a51-2f7a3b1c9d10';
const goal: GoalSnapshot = {
  goalId, version: 1, deleted: false, name: 'News', sendImmediately: false, secondLanguageEnabled: false,
  secondLanguage: null, publishPolicy: null, fieldDefaults: {},
};
const desk: ReceiverField = { key: 'desk', label: 'Desk', type: 'text', required: true, multiple: false };
const topic: ReceiverField = { key: 'topic', label: 'Topic', type: 'enum', required: true, multiple: true, options: [] };
const note: ReceiverField = { key: 'note', label: 'Note', type: 'text', required: false, multiple: false };

function input(patch: Partial<ReadinessInput> = {}): ReadinessInput {
  return { goalId, goal, contractFields: [], values: {}, revision: 1, approvedRevision: 0, ...patch };
}

describe('decideReadiness (§3)', () => {
  it('keeps a result pending while its goal is unknown', () => {
    expect(decideReadiness(input({ goal: null }))).toEqual({ kind: 'pending', reason: `goal ${goalId} is not known yet; waiting for its settings` });
  });

  it('rejects a result of a deleted goal, even an approved one', () => {
    expect(decideReadiness(input({ goal: { ...goal, deleted: true }, approvedRevision: 1 }))).toEqual({ kind: 'rejected', reason: `goal ${goalId} was deleted` });
  });

  it('needs approval when a required field has no value, naming every missing field, even when approved and sent immediately', () => {
    const decision = decideReadiness(input({
      goal: { ...goal, sendImmediately: true }, approvedRevision: 1, contractFields: [note, topic, desk], values: { topic: [] },
    }));
    expect(decision).toEqual({ kind: 'needs_approval', reason: 'required receiver fields have no value: desk, topic', missingFields: ['desk', 'topic'] });
  });

  it('does not hold a result back for an optional field', () => {
    expect(decideReadiness(input({ contractFields: [note], approvedRevision: 1 })).kind).toBe('send');
  });

  it('treats blank text as no value', () => {
    expect(decideReadiness(input({ contractFields: [desk], values: { desk: '  ' } })).kind).toBe('needs_approval');
  });

  it('waits for approval when send immediately is off', () => {
    expect(decideReadiness(input())).toEqual({ kind: 'awaiting_approval', reason: 'revision 1 waits for approval (send immediately is off)' });
  });

  it('an approval of an older revision does not cover a newer one', () => {
    expect(decideReadiness(input({ revision: 3, approvedRevision: 2 })).kind).toBe('awaiting_approval');
  });

  it('sends an approved revision (or one approved later), with the goal it was decided on', () => {
    expect(decideReadiness(input({ revision: 2, approvedRevision: 2 }))).toEqual({ kind: 'send', goal });
    expect(decideReadiness(input({ revision: 2, approvedRevision: 3 })).kind).toBe('send');
  });

  it('sends without approval when the goal sends immediately', () => {
    expect(decideReadiness(input({ goal: { ...goal, sendImmediately: true } })).kind).toBe('send');
  });
});
