import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SERVICE_SCHEMA } from '../../database/schema';
import type { StoredContent } from './result-content';

/** Every accepted content of a result, as it went out in result.revised. */
@Entity({ schema: SERVICE_SCHEMA, name: 'result_revisions' })
export class ResultRevisionEntity {
  @PrimaryColumn({ name: 'result_id', type: 'text' }) resultId!: string;
  @PrimaryColumn('int') revision!: number;
  @Column({ name: 'workflow_execution', type: 'text' }) workflowExecution!: string;
  @Column({ name: 'parent_execution', type: 'text', nullable: true }) parentExecution!: string | null;
  @Column({ name: 'text_only_change', type: 'boolean' }) textOnlyChange!: boolean;
  @Column({ name: 'new_articles', type: 'jsonb' }) newArticles!: string[];
  @Column({ type: 'jsonb' }) content!: StoredContent;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
