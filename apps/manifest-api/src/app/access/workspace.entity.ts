import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SERVICE_SCHEMA } from '../../database/schema';

/** A tenant: goals, results and API tokens belong to exactly one workspace. */
@Entity({ schema: SERVICE_SCHEMA, name: 'workspaces' })
export class WorkspaceEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** Set by DELETE /api/workspaces/{id}: hidden from every read, its tokens revoked. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}
