import { ApiProperty } from '../openapi/api-docs';
import { DELIVERY_MODES, PUBLISH_POLICIES, type DeliveryMode, type PublishPolicy } from '@owd/events';
import type { FieldValue } from '@owd/payload';
import { CHANNELS, type Channel, type GoalEntity } from './goal.entity';

export class SecretStateView {
  @ApiProperty({ description: 'Whether a secret is set; its value is never shown' }) set!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) setAt!: string | null;

  static of(goal: GoalEntity): SecretStateView {
    return { set: goal.secretSealed !== null, setAt: goal.secretSetAt?.toISOString() ?? null };
  }
}

export class VerificationView {
  @ApiProperty({ description: 'A Send test to the current recipient URL with the current secret was answered with 2xx; cleared by a new URL, a secret change or a failed Send test to the saved URL' })
  verified!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) verifiedAt!: string | null;
}

export class GoalView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) workspaceId!: string;
  @ApiProperty({ description: 'Grows with every change; the version of the latest goal.changed' }) version!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'en' }) sourceLang!: string;
  @ApiProperty({ enum: CHANNELS }) channel!: Channel;
  @ApiProperty({ type: String, nullable: true }) recipientUrl!: string | null;
  @ApiProperty({ enum: DELIVERY_MODES }) deliveryMode!: DeliveryMode;
  @ApiProperty() secondLanguageEnabled!: boolean;
  @ApiProperty({ type: String, nullable: true }) secondLanguage!: string | null;
  @ApiProperty() sendImmediately!: boolean;
  @ApiProperty({ enum: PUBLISH_POLICIES, nullable: true }) publishPolicy!: PublishPolicy | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) fieldDefaults!: Record<string, FieldValue>;
  @ApiProperty({ type: String, nullable: true }) ownerEmail!: string | null;
  @ApiProperty({ type: SecretStateView }) secret!: SecretStateView;
  @ApiProperty({ type: VerificationView }) verification!: VerificationView;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;

  static of(g: GoalEntity): GoalView {
    const verified = g.verifiedUrl !== null && g.verifiedUrl === g.recipientUrl;
    return {
      id: g.id, workspaceId: g.workspaceId, version: g.version, name: g.name, sourceLang: g.sourceLang, channel: g.channel,
      recipientUrl: g.recipientUrl, deliveryMode: g.deliveryMode, secondLanguageEnabled: g.secondLanguageEnabled,
      secondLanguage: g.secondLanguage, sendImmediately: g.sendImmediately, publishPolicy: g.publishPolicy,
      fieldDefaults: g.fieldDefaults, ownerEmail: g.ownerEmail, secret: SecretStateView.of(g),
      verification: { verified, verifiedAt: verified ? (g.verifiedAt?.toISOString() ?? null) : null },
      createdAt: g.createdAt.toISOString(), updatedAt: g.updatedAt.toISOString(),
    };
  }
}
