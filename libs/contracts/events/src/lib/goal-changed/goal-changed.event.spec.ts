import { createEnvelope } from '../envelope/create-envelope';
import { definitionMap, parseEnvelope } from '../envelope/parse-envelope';
import { ALL_EVENTS } from '../registry';
import { GoalChanged, type GoalChangedPayload } from './goal-changed.event';

const definitions = definitionMap(ALL_EVENTS);
const goal: GoalChangedPayload = {
  goalId: '0d8f6c2a-3b1e-4c55-9a77-21f0e3c4b5a6', workspaceId: '6a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d', version: 1,
  deleted: false, name: 'Daily news', sourceLang: 'en', recipientUrl: null, deliveryMode: 'test', secretCiphertext: null,
  sendImmediately: false, secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null, fieldDefaults: {},
};

function parse(payload: GoalChangedPayload) {
  const envelope = createEnvelope(GoalChanged, payload, { correlationId: 'c' });
  return parseEnvelope(Buffer.from(JSON.stringify(envelope)), definitions);
}

describe('goal.changed ownerEmail', () => {
  it('is optional: a snapshot without it, or with null, stays valid', () => {
    expect(parse(goal).ok).toBe(true);
    expect(parse({ ...goal, ownerEmail: null }).ok).toBe(true);
  });

  it('accepts an e-mail address and rejects anything else', () => {
    expect(parse({ ...goal, ownerEmail: 'owner@example.com' }).ok).toBe(true);
    expect(parse({ ...goal, ownerEmail: 'not-an-address' })).toMatchObject({ ok: false, reason: expect.stringMatching(/ownerEmail/) });
  });
});
