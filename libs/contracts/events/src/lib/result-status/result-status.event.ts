import { IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Min, MinLength } from 'class-validator';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

export const RESULT_STATUSES = ['needs_approval', 'awaiting_approval', 'queued', 'rejected'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** The payload-builder's readiness decision for a revision (§3), with a reason a person can read. */
export class ResultStatusChangedPayload {
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  @IsInt() @Min(1) revision!: number;
  @IsIn(RESULT_STATUSES) status!: ResultStatus;
  @IsString() reason!: string;
  /** Required receiver fields without a value (status needs_approval). */
  @IsArray() @IsString({ each: true }) missingFields!: string[];
  /** Set when status is queued: the delivery that carries the frozen bytes. */
  @IsOptional() @IsUUID() deliveryId?: string;
  /** The revision result.revised announced for the content `revision` carries; differs after a 409 re-send took numbers. */
  @IsOptional() @IsInt() @Min(1) announcedRevision?: number;
}

export const ResultStatusChanged = defineEvent({
  type: 'result.status-changed',
  topic: TOPICS.RESULT_STATUS,
  schemaVersion: 1,
  payloadClass: ResultStatusChangedPayload,
  keyOf: (p: ResultStatusChangedPayload) => p.resultId,
});
