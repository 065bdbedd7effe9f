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
  report: ReportSpec;
  /** Reports published after `report`, in order: other sources (plugins), or later reports of the same one. */
  laterReports?: ReportSpec[];
}

export type ReportSpec = Capabilities & { reportedAt: string; source?: string; requiredFields?: { key: string; label: string }[] };

export const MATCHING: Capabilities = { sectionTypes: ['text', 'gallery'], blockTypes: ['paragraph', 'quote'], fieldKeys: ['category', 'region'] };

/**
 * Publishes a goal's goal.changed, contract.changed and capability.reported (one per report) on the test prefix
 * and waits until the notifier's projection holds the goal, its contract and the latest report of each source.
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
  const reports: CapabilityReportedPayload[] = [spec.report, ...(spec.laterReports ?? [])].map((r) => ({ goalId, workspaceId, source: 'receiver', ...r }));
  const context = { correlationId: goalId };
  await via.producer.emit(GoalChanged, goal, context);
  await via.producer.emit(ContractChanged, contract, context);
  for (const report of reports) await via.producer.emit(CapabilityReported, report, context);
  const latest = new Map<string, number>();
  for (const r of reports) latest.set(r.source, Math.max(latest.get(r.source) ?? 0, new Date(r.reportedAt).getTime()));
  await waitFor(async () => {
    const [row] = await via.dataSource.query(
      `SELECT (SELECT count(*) FROM goals WHERE goal_id = $1) + (SELECT count(*) FROM contracts WHERE goal_id = $1) AS n`, [goalId]);
    const held: { source: string; reported_at: Date }[] = await via.dataSource.query(
      `SELECT source, reported_at FROM capabilities WHERE goal_id = $1`, [goalId]);
    return Number(row.n) === 2 && held.length === latest.size && held.every((h) => latest.get(h.source) === h.reported_at.getTime());
  }, { what: `the projection of goal ${goalId}` });
  return { goalId, owner };
}
