import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ReceiverField } from '@owd/payload';
import { SERVICE_SCHEMA } from '../../database/schema';

export type ContractOrigin = 'receiver' | 'manual';

/** A goal's content contract: what the receiver renders, and the receiver fields that apply. */
@Entity({ schema: SERVICE_SCHEMA, name: 'contracts' })
export class ContractEntity {
  @PrimaryColumn({ name: 'goal_id', type: 'uuid' }) goalId!: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId!: string;
  @Column('int') version!: number;
  @Column('text') origin!: ContractOrigin;
  @Column({ name: 'section_types', type: 'jsonb' }) sectionTypes!: string[];
  @Column({ name: 'block_types', type: 'jsonb' }) blockTypes!: string[];
  @Column({ type: 'jsonb' }) fields!: ReceiverField[];
  @Column({ name: 'established_at', type: 'timestamptz' }) establishedAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
