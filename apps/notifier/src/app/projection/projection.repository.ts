import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { CapabilityReportedPayload, ContractChangedPayload, GoalChangedPayload } from '@owd/events';
import type { ContractField, GoalCheckState } from '../notices/findings';

interface CheckRow {
  goal_id: string;
  name: string | null;
  owner_email: string | null;
  deleted: boolean | null;
  origin: 'manual' | 'receiver' | null;
  contract_sections: string[] | null;
  contract_blocks: string[] | null;
  contract_fields: ContractField[] | null;
  reports: { source: string; sectionTypes: string[]; blockTypes: string[]; fieldKeys: string[]; requiredFields: ContractField[]; reportedAt: string }[];
}

/**
 * The notifier's own copy of goals, contracts and the latest capability report of each source of a goal (with its required fields).
 * Writes run in the consumer's transaction; an older snapshot never overwrites a newer one.
 */
@Injectable()
export class ProjectionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async saveContract(manager: EntityManager, p: ContractChangedPayload): Promise<void> {
    const fields = p.fields.map((f) => ({ key: f.key, label: f.label }));
    await manager.query(
      `INSERT INTO contracts (goal_id, workspace_id, version, origin, section_types, block_types, fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (goal_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, version = EXCLUDED.version,
         origin = EXCLUDED.origin, section_types = EXCLUDED.section_types, block_types = EXCLUDED.block_types,
         fields = EXCLUDED.fields, updated_at = now()
       WHERE contracts.version <= EXCLUDED.version`,
      [p.goalId, p.workspaceId, p.version, p.origin, p.sectionTypes, p.blockTypes, JSON.stringify(fields)],
    );
  }

  async saveReport(manager: EntityManager, p: CapabilityReportedPayload): Promise<void> {
    const requiredFields = (p.requiredFields ?? []).map((f) => ({ key: f.key, label: f.label }));
    await manager.query(
      `INSERT INTO capabilities (goal_id, workspace_id, source, section_types, block_types, field_keys, required_fields, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (goal_id, source) DO UPDATE SET workspace_id = EXCLUDED.workspace_id,
         section_types = EXCLUDED.section_types, block_types = EXCLUDED.block_types,
         field_keys = EXCLUDED.field_keys, required_fields = EXCLUDED.required_fields, reported_at = EXCLUDED.reported_at
       WHERE capabilities.reported_at <= EXCLUDED.reported_at`,
      [p.goalId, p.workspaceId, p.source, p.sectionTypes, p.blockTypes, p.fieldKeys, JSON.stringify(requiredFields), p.reportedAt],
    );
  }

  async saveGoal(manager: EntityManager, p: GoalChangedPayload): Promise<void> {
    await manager.query(
      `INSERT INTO goals (goal_id, workspace_id, version, name, owner_email, deleted)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (goal_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, version = EXCLUDED.version,
         name = EXCLUDED.name, owner_email = EXCLUDED.owner_email, deleted = EXCLUDED.deleted, updated_at = now()
       WHERE goals.version <= EXCLUDED.version`,
      [p.goalId, p.workspaceId, p.version, p.name, p.ownerEmail ?? null, p.deleted],
    );
  }

  /** One page (by goal id) of the goals that have a capability report, each with the latest report of every source. */
  async checkPage(afterGoalId: string | null, limit: number): Promise<GoalCheckState[]> {
    // Grouped by the primary keys of goals and contracts, so their columns can be selected as they are.
    const rows: CheckRow[] = await this.dataSource.query(
      `SELECT cap.goal_id, g.name, g.owner_email, g.deleted, c.origin, c.section_types AS contract_sections,
              c.block_types AS contract_blocks, c.fields AS contract_fields,
              json_agg(json_build_object('source', cap.source, 'sectionTypes', cap.section_types, 'blockTypes', cap.block_types,
                'fieldKeys', cap.field_keys, 'requiredFields', cap.required_fields, 'reportedAt', cap.reported_at) ORDER BY cap.source) AS reports
         FROM capabilities cap
         LEFT JOIN contracts c ON c.goal_id = cap.goal_id
         LEFT JOIN goals g ON g.goal_id = cap.goal_id
        WHERE $1::uuid IS NULL OR cap.goal_id > $1::uuid
        GROUP BY cap.goal_id, g.goal_id, c.goal_id
        ORDER BY cap.goal_id
        LIMIT $2`,
      [afterGoalId, limit],
    );
    return rows.map((r) => ({
      goalId: r.goal_id,
      goal: r.name === null ? null : { name: r.name, ownerEmail: r.owner_email, deleted: r.deleted === true },
      contract: r.origin === null ? null : {
        origin: r.origin, sectionTypes: r.contract_sections ?? [], blockTypes: r.contract_blocks ?? [], fields: r.contract_fields ?? [],
      },
      reports: r.reports.map((report) => ({ ...report, reportedAt: new Date(report.reportedAt) })),
    }));
  }
}
