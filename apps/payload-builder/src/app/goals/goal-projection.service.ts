import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { readTogether, scopeState, type JointRead, type TransactionScope } from '@owd/database';
import type { ContractChangedPayload, GoalChangedPayload } from '@owd/events';
import type { ReceiverField } from '@owd/payload';
import type { ContractSnapshot, GoalSnapshot } from './goal.types';

interface GoalRow {
  goal_id: string;
  version: number;
  deleted: boolean;
  name: string;
  send_immediately: boolean;
  second_language_enabled: boolean;
  second_language: string | null;
  publish_policy: GoalSnapshot['publishPolicy'];
  field_defaults: Record<string, unknown>;
}

interface ContractRow {
  goal_id: string;
  version: number;
  origin: ContractSnapshot['origin'];
  section_types: string[];
  block_types: string[];
  fields: ReceiverField[];
}

export interface GoalSettings {
  goal: GoalSnapshot | null;
  contract: ContractSnapshot | null;
}

/** The goal settings one transaction has read. */
const SETTINGS_READ: TransactionScope<Map<string, GoalSettings>> = { name: 'payload-builder.goal-settings', create: () => new Map() };

function settingsOf(manager: EntityManager): Map<string, GoalSettings> {
  const read = scopeState(manager, SETTINGS_READ);
  if (!read) throw new Error('goal settings are read inside a transaction');
  return read;
}

/**
 * This service's own copy of goals and contracts, built from their snapshot events.
 * A snapshot older than (or as old as) the one held is ignored, so replays and reordering are harmless.
 */
@Injectable()
export class GoalProjectionService {
  /** Returns true when the snapshot was newer and is now the one held. */
  async applyGoal(manager: EntityManager, goal: GoalChangedPayload): Promise<boolean> {
    settingsOf(manager).delete(goal.goalId);
    const rows: unknown[] = await manager.query(
      `INSERT INTO goals (goal_id, version, deleted, name, send_immediately, second_language_enabled,
                          second_language, publish_policy, field_defaults)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (goal_id) DO UPDATE SET version = EXCLUDED.version, deleted = EXCLUDED.deleted, name = EXCLUDED.name,
         send_immediately = EXCLUDED.send_immediately, second_language_enabled = EXCLUDED.second_language_enabled,
         second_language = EXCLUDED.second_language, publish_policy = EXCLUDED.publish_policy,
         field_defaults = EXCLUDED.field_defaults, updated_at = now()
       WHERE goals.version < EXCLUDED.version
       RETURNING goal_id`,
      [goal.goalId, goal.version, goal.deleted, goal.name, goal.sendImmediately, goal.secondLanguageEnabled,
        goal.secondLanguage ?? null, goal.publishPolicy ?? null, JSON.stringify(goal.fieldDefaults)],
    );
    return rows.length > 0;
  }

  async applyContract(manager: EntityManager, contract: ContractChangedPayload): Promise<boolean> {
    settingsOf(manager).delete(contract.goalId);
    const fields: ReceiverField[] = contract.fields.map((f) => ({
      key: f.key, label: f.label, type: f.type, required: f.required, multiple: f.multiple,
      ...(f.options ? { options: f.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
    }));
    const rows: unknown[] = await manager.query(
      `INSERT INTO contracts (goal_id, version, origin, section_types, block_types, fields)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (goal_id) DO UPDATE SET version = EXCLUDED.version, origin = EXCLUDED.origin,
         section_types = EXCLUDED.section_types, block_types = EXCLUDED.block_types, fields = EXCLUDED.fields,
         updated_at = now()
       WHERE contracts.version < EXCLUDED.version
       RETURNING goal_id`,
      [contract.goalId, contract.version, contract.origin, contract.sectionTypes, contract.blockTypes, JSON.stringify(fields)],
    );
    return rows.length > 0;
  }

  /** The goal's settings and its contract (each null until its first event arrived). */
  async settings(manager: EntityManager, goalId: string): Promise<GoalSettings> {
    await this.loadSettings(manager, [goalId]);
    return settingsOf(manager).get(goalId) as GoalSettings;
  }

  /**
   * Reads the settings of the goals not read yet in this transaction, in one statement. They are kept for the
   * rest of it: a goal changes only in its own handler, which holds the goal's lock exclusively.
   */
  async loadSettings(manager: EntityManager, goalIds: readonly string[]): Promise<void> {
    await readTogether(manager, [this.settingsRead(manager, goalIds)]);
  }

  /** The read of the goals' settings not read yet in this transaction (to go out with other reads, `readTogether`). */
  settingsRead(manager: EntityManager, goalIds: readonly string[]): JointRead | null {
    const known = settingsOf(manager);
    const needed = [...new Set(goalIds)].filter((id) => !known.has(id));
    if (needed.length === 0) return null;
    return {
      sql: `SELECT k.goal_id, to_jsonb(g) AS goal, to_jsonb(c) AS contract
              FROM unnest($1::uuid[]) AS k(goal_id) LEFT JOIN goals g USING (goal_id) LEFT JOIN contracts c USING (goal_id)`,
      params: [needed],
      take: (rows) => this.keep(known, rows as unknown as { goal_id: string; goal: GoalRow | null; contract: ContractRow | null }[]),
    };
  }

  private keep(known: Map<string, GoalSettings>, rows: readonly { goal_id: string; goal: GoalRow | null; contract: ContractRow | null }[]): void {
    for (const { goal_id, goal: g, contract: c } of rows) {
      known.set(goal_id, {
        goal: g && {
          goalId: g.goal_id, version: g.version, deleted: g.deleted, name: g.name,
          sendImmediately: g.send_immediately, secondLanguageEnabled: g.second_language_enabled,
          secondLanguage: g.second_language, publishPolicy: g.publish_policy, fieldDefaults: g.field_defaults,
        },
        contract: c && {
          goalId: c.goal_id, version: c.version, origin: c.origin,
          sectionTypes: c.section_types, blockTypes: c.block_types, fields: c.fields,
        },
      });
    }
  }
}
