import { IsInt, IsObject, IsOptional, IsString, IsUUID, Min, MinLength } from 'class-validator';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

/** A user approved a result for sending (the result panel's Approve / Dispatch). */
export class ResultApprovedPayload {
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  @IsInt() @Min(1) revision!: number;
  @IsOptional() @IsString() approvedBy?: string;
}

/** Per-result receiver field values were saved on the Delivery tab (already validated by the API). */
export class ResultFieldsSetPayload {
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  @IsObject() values!: Record<string, unknown>;
  /** Grows with every saved set of this result (1 for the first); optional so older producers stay valid. */
  @IsOptional() @IsInt() @Min(1) fieldValuesVersion?: number;
}

/** Manual retry of a failed delivery from the result panel: same content, same X-SH-Delivery. */
export class DeliveryRetryRequestedPayload {
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  @IsUUID() deliveryId!: string;
}

export const ResultApproved = defineEvent({
  type: 'result.approved',
  topic: TOPICS.RESULT_WORKFLOW,
  schemaVersion: 1,
  payloadClass: ResultApprovedPayload,
  keyOf: (p: ResultApprovedPayload) => p.resultId,
});

export const ResultFieldsSet = defineEvent({
  type: 'result.fields-set',
  topic: TOPICS.RESULT_WORKFLOW,
  schemaVersion: 1,
  payloadClass: ResultFieldsSetPayload,
  keyOf: (p: ResultFieldsSetPayload) => p.resultId,
});

export const DeliveryRetryRequested = defineEvent({
  type: 'delivery.retry-requested',
  topic: TOPICS.RESULT_WORKFLOW,
  schemaVersion: 1,
  payloadClass: DeliveryRetryRequestedPayload,
  keyOf: (p: DeliveryRetryRequestedPayload) => p.resultId,
});
