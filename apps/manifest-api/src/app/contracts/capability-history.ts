import type { EntityManager } from 'typeorm';
import { CapabilityEntity, type CapabilityKind } from './capability.entity';

export interface CapabilityRef {
  kind: CapabilityKind;
  name: string;
}

/** Records that a report named these capabilities now; returns the ones never named before for this goal. */
export async function recordCapabilities(m: EntityManager, goalId: string, source: string, named: CapabilityRef[], now: Date): Promise<CapabilityRef[]> {
  const repo = m.getRepository(CapabilityEntity);
  const known = new Set((await repo.findBy({ goalId })).map((c) => `${c.kind}:${c.name}`));
  const unique = [...new Map(named.map((c) => [`${c.kind}:${c.name}`, c])).values()];
  const fresh = unique.filter((c) => !known.has(`${c.kind}:${c.name}`));
  if (fresh.length) {
    await repo.insert(fresh.map((c) => ({ goalId, kind: c.kind, name: c.name, lastSource: source, firstReportedAt: now, lastReportedAt: now })));
  }
  const seen = unique.filter((c) => known.has(`${c.kind}:${c.name}`));
  for (const c of seen) await repo.update({ goalId, kind: c.kind, name: c.name }, { lastSource: source, lastReportedAt: now });
  return fresh;
}
