import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Min } from 'class-validator';
import { IsAsciiEmail } from '../formats/format.decorators';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

export const DELIVERY_MODES = ['test', 'production'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const PUBLISH_POLICIES = ['moderation', 'draft', 'publish'] as const;
export type PublishPolicy = (typeof PUBLISH_POLICIES)[number];

/** The full current settings of a goal (a snapshot, so consumers need no history to project it). */
export class GoalChangedPayload {
  @IsUUID() goalId!: string;
  @IsUUID() workspaceId!: string;
  /** Grows with every change; consumers ignore a snapshot older than the one they hold. */
  @IsInt() @Min(1) version!: number;
  @IsBoolean() deleted!: boolean;
  @IsString() name!: string;
  @IsString() sourceLang!: string;
  @IsOptional() @IsString() recipientUrl!: string | null;
  @IsIn(DELIVERY_MODES) deliveryMode!: DeliveryMode;
  /** AES-256-GCM ciphertext of the secret (key from configuration); the clear secret never travels. */
  @IsOptional() @IsString() secretCiphertext!: string | null;
  @IsBoolean() sendImmediately!: boolean;
  @IsBoolean() secondLanguageEnabled!: boolean;
  @IsOptional() @IsString() secondLanguage!: string | null;
  @IsOptional() @IsIn(PUBLISH_POLICIES) publishPolicy!: PublishPolicy | null;
  @IsObject() fieldDefaults!: Record<string, unknown>;
  /** Where the weekly contract notice goes (notifier); optional so older producers stay valid. */
  @IsOptional() @IsAsciiEmail() ownerEmail?: string | null;
}

export const GoalChanged = defineEvent({
  type: 'goal.changed',
  topic: TOPICS.GOAL_CHANGED,
  schemaVersion: 1,
  payloadClass: GoalChangedPayload,
  keyOf: (p: GoalChangedPayload) => p.goalId,
});
