import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SERVICE_SCHEMA } from '../../database/schema';
import type { StoredContent } from './result-content';

/**
 * Every revision of a result: each accepted content (as it went out in result.revised) and each 409 re-send of one.
 * `revision` is payload-builder's number once result.status reported it, a prediction by the same rule until then.
 */
@Entity({ schema: SERVICE_SCHEMA, name: 'result_revisions' })
export class ResultRevisionEntity {
  @PrimaryColumn({ name: 'result_id', type: 'text' }) resultId!: string;
  @PrimaryColumn('int') revision!: number;
  /** The revision result.revised announced this content under; never changes. */
  @Column({ name: 'announced_revision', type: 'int' }) announcedRevision!: number;
  /** Set on a 409 re-send: the revision whose content it repeats. */
  @Column({ name: 'resend_of', type: 'int', nullable: true }) resendOf!: number | null;
  @Column({ name: 'workflow_execution', type: 'text' }) workflowExecution!: string;
  @Column({ name: 'parent_execution', type: 'text', nullable: true }) parentExecution!: string | null;
  @Column({ name: 'text_only_change', type: 'boolean' }) textOnlyChange!: boolean;
  @Column({ name: 'new_articles', type: 'jsonb' }) newArticles!: string[];
  @Column({ type: 'jsonb' }) content!: StoredContent;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
