import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ReceiverField } from '@owd/payload';
import { SERVICE_SCHEMA } from '../../database/schema';

export type ReportSource = 'receiver' | 'plugin';

/** The latest capability report of each source for a goal (a plugin's is kept, though its fields never apply). */
@Entity({ schema: SERVICE_SCHEMA, name: 'target_reports' })
export class TargetReportEntity {
  @PrimaryColumn({ name: 'goal_id', type: 'uuid' }) goalId!: string;
  @PrimaryColumn('text') source!: ReportSource;
  /** The `source` value as sent (e.g. `wordpress`); null when the report had none. */
  @Column({ name: 'reported_source', type: 'text', nullable: true }) reportedSource!: string | null;
  @Column({ name: 'section_types', type: 'jsonb' }) sectionTypes!: string[];
  @Column({ name: 'block_types', type: 'jsonb' }) blockTypes!: string[];
  @Column({ type: 'jsonb' }) fields!: ReceiverField[];
  @Column({ name: 'first_reported_at', type: 'timestamptz' }) firstReportedAt!: Date;
  @Column({ name: 'reported_at', type: 'timestamptz' }) reportedAt!: Date;
}
