import { IsBase64, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Min, MinLength } from 'class-validator';
import { IsUtcTimestamp } from '../formats/format.decorators';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

export const DELIVERY_REASONS = ['first', 'revision', 'conflict', 'manual-retry'] as const;

/** Frozen payload bytes of one (result, revision): every attempt of this delivery sends exactly these. */
export class DeliveryRequestedPayload {
  /** X-SH-Delivery: one series of attempts of one content. */
  @IsUUID() deliveryId!: string;
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  @IsInt() @Min(1) revision!: number;
  @IsBase64() bodyBase64!: string;
  @Matches(/^[0-9a-f]{64}$/) bodySha256!: string;
  @IsUtcTimestamp() executedAt!: string;
  @IsIn(DELIVERY_REASONS) reason!: (typeof DELIVERY_REASONS)[number];
  /** The goal.changed version the body was built under: the dispatcher sends only with these settings or newer. */
  @IsOptional() @IsInt() @Min(1) goalVersion?: number | null;
}

export const DeliveryRequested = defineEvent({
  type: 'delivery.requested',
  topic: TOPICS.DELIVERY_REQUESTED,
  schemaVersion: 1,
  payloadClass: DeliveryRequestedPayload,
  keyOf: (p: DeliveryRequestedPayload) => p.resultId,
});
