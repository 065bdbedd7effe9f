import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SERVICE_SCHEMA } from '../../database/schema';

export const CAPABILITY_KINDS = ['section', 'block', 'field'] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

/** Capability history: every section type, block type and field key a goal's reports ever named. */
@Entity({ schema: SERVICE_SCHEMA, name: 'capabilities' })
export class CapabilityEntity {
  @PrimaryColumn({ name: 'goal_id', type: 'uuid' }) goalId!: string;
  @PrimaryColumn('text') kind!: CapabilityKind;
  @PrimaryColumn('text') name!: string;
  /** Source of the latest report that named it: `receiver` or `plugin`. */
  @Column({ name: 'last_source', type: 'text' }) lastSource!: string;
  @Column({ name: 'first_reported_at', type: 'timestamptz' }) firstReportedAt!: Date;
  @Column({ name: 'last_reported_at', type: 'timestamptz' }) lastReportedAt!: Date;
}
