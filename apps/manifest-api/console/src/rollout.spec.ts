import type { ResultState } from './api-types';
import { rolloutProgress, rolloutSteps } from './rollout';

type Facts = Parameters<typeof rolloutSteps>[0];

const NEW_GOAL: Facts = {
  channel: 'http_address', recipientUrl: null, deliveryMode: 'test', sendImmediately: false,
  verification: { verified: false, verifiedAt: null }, secret: { set: false, setAt: null },
};
const result = (status: ResultState) => ({ state: { status } });
const delivered = result('delivered');
const waiting = result('awaiting_approval');

const statuses = (goal: Facts, results: { state: { status: ResultState } }[]) => rolloutSteps(goal, results).map((s) => s.status);

describe('rollout checklist (spec §1)', () => {
  it('lists the seven steps in the recommended order', () => {
    expect(rolloutSteps(NEW_GOAL, []).map((s) => s.title)).toEqual([
      'Pick the HTTP address tile', 'Keep Test mode and use Send test', 'Make the receiver idempotent',
      'Enter the real URL and the optional secret', 'Switch to Production',
      'Dispatch one approved result and check it in the target application', 'Only then use Send immediately',
    ]);
  });

  it('marks only the tile done on a new goal, the idempotency step as the receiver owner’s, and the Send test as next', () => {
    const steps = rolloutSteps(NEW_GOAL, []);
    expect(steps.map((s) => s.status)).toEqual(['done', 'todo', 'yours', 'todo', 'todo', 'todo', 'todo']);
    expect(steps.filter((s) => s.next).map((s) => s.title)).toEqual(['Keep Test mode and use Send test']);
  });

  it('counts every step it lists, naming the receiver’s own one', () => {
    const steps = rolloutSteps(NEW_GOAL, []);
    expect(rolloutProgress(steps)).toBe(`1 of ${steps.length} steps done · 1 is your receiver’s part`);
    expect(steps).toHaveLength(7);
  });

  it('marks each step done from the goal and its results', () => {
    const live: Facts = {
      ...NEW_GOAL, recipientUrl: 'https://cms.example.com/hook', deliveryMode: 'production', sendImmediately: true,
      verification: { verified: true, verifiedAt: '2026-11-21T10:00:00.000Z' }, secret: { set: true, setAt: '2026-11-21T09:00:00.000Z' },
    };
    expect(statuses(live, [waiting, delivered])).toEqual(['done', 'done', 'yours', 'done', 'done', 'done', 'done']);
    expect(rolloutSteps(live, [delivered]).some((s) => s.next)).toBe(false);
    expect(rolloutSteps(live, [delivered])[3].detail).toBe('URL and secret saved.');
    expect(rolloutSteps({ ...live, secret: { set: false, setAt: null } }, [])[3].detail).toBe('URL saved; no secret (optional).');
  });

  it('does not count a result that waits for approval as dispatched', () => {
    expect(statuses({ ...NEW_GOAL, deliveryMode: 'production', recipientUrl: 'https://cms.example.com/hook' }, [waiting])[5]).toBe('todo');
  });
});
