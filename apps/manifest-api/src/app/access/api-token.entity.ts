import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SERVICE_SCHEMA } from '../../database/schema';

/** An API token of a workspace; only the SHA-256 of the token is kept, the token itself is shown once. */
@Entity({ schema: SERVICE_SCHEMA, name: 'api_tokens' })
export class ApiTokenEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId!: string;
  @Column('text') name!: string;
  /** The first characters of the token, so people can tell their tokens apart. */
  @Column('text') prefix!: string;
  @Column({ name: 'token_hash', type: 'text' }) tokenHash!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt!: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt!: Date | null;
}
