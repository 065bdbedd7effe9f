import { randomUUID } from 'node:crypto';
import {
  CapabilityReported, ContractChanged, GoalChanged,
  type CapabilityReportedPayload, type ContractChangedPayload, type GoalChangedPayload,
} from '@owd/events';
import { waitFor } from '@owd/testing';
import type { NotifierInstance } from './notifier-app';

export interface Capabilities {
  sectionTypes: string[];
  blockTypes: string[];
  fieldKeys: string[];
}

export interface GoalSpec {
  name?: string;
  /** null: the goal has no owner e-mail; default: a unique address per goal. */
  ownerEmail?: null;
  origin?: 'manual' | 'receiver';
  contract?: Capabilities;
  report: Capabilities & { reportedAt: string; source?: string; requiredFields?: { key: string; label: string }[] };
}

export const MATCHING: Capabilities = { sectionTypes: ['text', 'gallery'], blockTypes: ['paragraph', 'quote'], fieldKeys: ['category', 'region'] };

/**
 * Publishes a goal's goal.changed, contract.changed and capability.reported on the test prefix and waits
 * until the notifier's projection holds all three.
 */
export async function seedGoal(via: NotifierInstance, receiverUrl: string, spec: GoalSpec): Promise<{ goalId: string; owner: string }> {
  const goalId = randomUUID();
  const workspaceId = randomUUID();
  const owner = `owner-${goalId}@example.test`;
  const goal: GoalChangedPayload = {
    goalId, workspaceId, version: 1, deleted: false, name: spec.name ?? `Goal ${goalId.slice(0, 8)}`, sourceLang: 'en',
    recipientUrl: receiverUrl, deliveryMode: 'production', secretCiphertext: null, sendImmediately: true,
    secondLanguageEnabled: false, secondLanguage: null, publishPolicy: null, fieldDefaults: {},
    ...(spec.ownerEmail === null ? {} : { ownerEmail: owner }),
  };
  const c = spec.contract ?? MATCHING;
  const contract: ContractChangedPayload = {
    goalId, workspaceId, version: 2, origin: spec.origin ?? 'manual', sectionTypes: c.sectionTypes, blockTypes: c.blockTypes,
    fields: c.fieldKeys.map((key) => ({ key, label: key.toUpperCase(), type: 'text', required: false, multiple: false })),
  };
  const report: CapabilityReportedPayload = { goalId, workspaceId, source: 'receiver', ...spec.report };
  const context = { correlationId: goalId };
  await via.producer.emit(GoalChanged, goal, context);
  await via.producer.emit(ContractChanged, contract, context);
  await via.producer.emit(CapabilityReported, report, context);
  await waitFor(async () => {
    const [row] = await via.dataSource.query(
      `SELECT (SELECT count(*) FROM goals WHERE goal_id = $1) + (SELECT count(*) FROM contracts WHERE goal_id = $1)
            + (SELECT count(*) FROM capabilities WHERE goal_id = $1) AS n`, [goalId]);
    return Number(row.n) === 3;
  }, { what: `the projection of goal ${goalId}` });
  return { goalId, owner };
}
