import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { FieldValue } from '@owd/payload';
import { SERVICE_SCHEMA } from '../../database/schema';
import type { StoredContent } from './result-content';

/** Where a result stands: readiness from payload-builder, then delivery from the dispatcher (see result-state.ts). */
export const RESULT_STATES = [
  'received', 'needs_approval', 'awaiting_approval', 'queued', 'rejected',
  'delivering', 'retry_scheduled', 'retry_requested', 'delivered', 'failed',
] as const;
export type ResultState = (typeof RESULT_STATES)[number];

export interface LastError {
  status: number | null;
  outcome: string;
  errorClass: string | null;
  errorMessage: string | null;
  attemptedAt: string;
}

/** A result with its current revision, and the projection of its delivery state. */
@Entity({ schema: SERVICE_SCHEMA, name: 'results' })
export class ResultEntity {
  @PrimaryColumn('text') id!: string;
  @Column({ name: 'goal_id', type: 'uuid' }) goalId!: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId!: string;
  @Column('int') revision!: number;
  @Column({ name: 'workflow_execution', type: 'text' }) workflowExecution!: string;
  @Column({ name: 'parent_execution', type: 'text', nullable: true }) parentExecution!: string | null;
  @Column({ type: 'jsonb' }) content!: StoredContent;
  @Column({ name: 'field_values', type: 'jsonb' }) fieldValues!: Record<string, FieldValue>;
  /** Grows with every saved set of field values; the events carry it so payload-builder keeps the newer set. */
  @Column({ name: 'field_values_version', type: 'int' }) fieldValuesVersion!: number;
  @Column('text') state!: ResultState;
  /** The revision the state describes; events about older revisions only add to the attempt history. */
  @Column({ name: 'state_revision', type: 'int' }) stateRevision!: number;
  @Column({ name: 'state_reason', type: 'text', nullable: true }) stateReason!: string | null;
  @Column({ name: 'missing_fields', type: 'jsonb' }) missingFields!: string[];
  @Column({ name: 'delivery_id', type: 'uuid', nullable: true }) deliveryId!: string | null;
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt!: Date | null;
  @Column({ name: 'last_error', type: 'jsonb', nullable: true }) lastError!: LastError | null;
  @Column({ name: 'approved_revision', type: 'int', nullable: true }) approvedRevision!: number | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'state_updated_at', type: 'timestamptz' }) stateUpdatedAt!: Date;
}
