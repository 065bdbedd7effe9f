import { GoalChanged, definitionMap, createEnvelope, parseEnvelope } from '@owd/events';
import type { GoalEntity } from './goal.entity';
import { goalSnapshot } from './goal-snapshot';

const goal = (ownerEmail: string | null) => ({
  id: '0d8f6c2a-3b1e-4c55-9a77-21f0e3c4b5a6', workspaceId: '6a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d', version: 2, deletedAt: null,
  name: 'Economy', sourceLang: 'en', recipientUrl: null, deliveryMode: 'test', secretSealed: null, sendImmediately: false,
  secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null, fieldDefaults: {}, ownerEmail,
}) as unknown as GoalEntity;

const consumed = (entity: GoalEntity) =>
  parseEnvelope(Buffer.from(JSON.stringify(createEnvelope(GoalChanged, goalSnapshot(entity), { correlationId: 'c' }))), definitionMap([GoalChanged]));

describe('goalSnapshot', () => {
  it('publishes the owner e-mail a consumer accepts', () => {
    expect(goalSnapshot(goal('desk@example.com')).ownerEmail).toBe('desk@example.com');
    expect(consumed(goal('desk@example.com')).ok).toBe(true);
  });

  it('publishes null for an internationalised address saved before intake refused them, so consumers never park the snapshot', () => {
    expect(goalSnapshot(goal('josé-1603bd@example.com')).ownerEmail).toBeNull();
    expect(consumed(goal('josé-1603bd@example.com')).ok).toBe(true);
  });
});
