import { Type } from 'class-transformer';
import {
  IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { IsNullable, IsUtcTimestamp } from '../formats/format.decorators';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

export const ATTEMPT_OUTCOMES = ['delivered', 'retriable', 'permanent', 'conflict', 'refused'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const ANSWER_BODY_ENCODINGS = ['utf-8', 'base64'] as const;

/** The receiver's answer as an attempt keeps it: bounded (4 KiB of headers, the first 4 KiB of the body). */
export class AttemptResponse {
  @IsObject() headers!: Record<string, string>;
  /** The kept bytes as received: text when they are UTF-8 without NUL, else base64 (4 KiB take 5,464 characters). */
  @IsString() @MaxLength(5464) body!: string;
  @IsIn(ANSWER_BODY_ENCODINGS) bodyEncoding!: (typeof ANSWER_BODY_ENCODINGS)[number];
  @IsBoolean() truncated!: boolean;
}

/** One attempt and its outcome (public: consumed by other systems, see docs/asyncapi.yaml). */
export class DeliveryAttemptedPayload {
  @IsUUID() deliveryId!: string;
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  /** The goal's workspace, so a consumer can scope by workspace without reading goal.changed; null only while unknown. */
  @IsNullable() @IsUUID() workspaceId!: string | null;
  @IsInt() @Min(1) revision!: number;
  /** Series of attempts of this delivery: 1 for the automatic one, +1 for each manual retry. */
  @IsInt() @Min(1) series!: number;
  @IsInt() @Min(1) @Max(3) attempt!: number;
  @IsString() targetHost!: string;
  @IsNullable() @IsInt() status!: number | null;
  @IsInt() @Min(0) durationMs!: number;
  @IsIn(ATTEMPT_OUTCOMES) outcome!: AttemptOutcome;
  @IsNullable() @IsString() errorClass!: string | null;
  @IsNullable() @IsString() errorMessage!: string | null;
  @IsUtcTimestamp() attemptedAt!: string;
  /** When the attempt ended; the retry delay counts from here. Optional only so events written before it still parse. */
  @IsOptional() @IsUtcTimestamp() endedAt?: string;
  /** When the next attempt is due; null when this attempt ended the delivery. */
  @IsNullable() @IsUtcTimestamp() nextAttemptAt!: string | null;
  /** The revision a 409 answer reported (§4.1); null otherwise. */
  @IsNullable() @IsInt() conflictRevision!: number | null;
  /** The receiver's answer (headers and the start of the body); null without one. Optional so older events still parse. */
  @IsOptional() @ValidateNested() @Type(() => AttemptResponse) response?: AttemptResponse | null;
  /** True when no further automatic attempt follows (delivered, failed, permanent, conflict). */
  @IsBoolean() final!: boolean;
}

export const DeliveryAttempted = defineEvent({
  type: 'delivery.attempted',
  topic: TOPICS.DELIVERY_ATTEMPTED,
  schemaVersion: 1,
  payloadClass: DeliveryAttemptedPayload,
  keyOf: (p: DeliveryAttemptedPayload) => p.resultId,
});
