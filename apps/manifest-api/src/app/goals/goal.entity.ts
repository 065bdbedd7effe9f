import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DeliveryMode, PublishPolicy } from '@owd/events';
import type { FieldValue } from '@owd/payload';
import { SERVICE_SCHEMA } from '../../database/schema';

export const CHANNELS = ['http_address'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A goal's channel settings (§1). `version` grows with every change and numbers the goal.changed snapshots. */
@Entity({ schema: SERVICE_SCHEMA, name: 'goals' })
export class GoalEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'workspace_id', type: 'uuid' }) workspaceId!: string;
  @Column('int') version!: number;
  @Column('text') name!: string;
  @Column({ name: 'source_lang', type: 'text' }) sourceLang!: string;
  @Column('text') channel!: Channel;
  @Column({ name: 'recipient_url', type: 'text', nullable: true }) recipientUrl!: string | null;
  @Column({ name: 'delivery_mode', type: 'text' }) deliveryMode!: DeliveryMode;
  @Column({ name: 'second_language_enabled', type: 'boolean' }) secondLanguageEnabled!: boolean;
  @Column({ name: 'second_language', type: 'text', nullable: true }) secondLanguage!: string | null;
  @Column({ name: 'send_immediately', type: 'boolean' }) sendImmediately!: boolean;
  @Column({ name: 'publish_policy', type: 'text', nullable: true }) publishPolicy!: PublishPolicy | null;
  @Column({ name: 'field_defaults', type: 'jsonb' }) fieldDefaults!: Record<string, FieldValue>;
  @Column({ name: 'owner_email', type: 'text', nullable: true }) ownerEmail!: string | null;
  /** SecretBox ciphertext (AAD = goal id); the clear secret is never stored. */
  @Column({ name: 'secret_sealed', type: 'text', nullable: true }) secretSealed!: string | null;
  @Column({ name: 'secret_set_at', type: 'timestamptz', nullable: true }) secretSetAt!: Date | null;
  /** The URL a Send test reached with a 2xx answer; cleared when the recipient URL changes. */
  @Column({ name: 'verified_url', type: 'text', nullable: true }) verifiedUrl!: string | null;
  @Column({ name: 'verified_at', type: 'timestamptz', nullable: true }) verifiedAt!: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}
