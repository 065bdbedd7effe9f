import { IsBoolean, IsInt, IsObject, IsOptional, IsString, IsUUID, Min, MinLength } from 'class-validator';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

/** A result was accepted or its content changed; `revision` grows with every content change (§6). */
export class ResultRevisedPayload {
  @IsString() @MinLength(1) resultId!: string;
  @IsUUID() goalId!: string;
  @IsUUID() workspaceId!: string;
  @IsInt() @Min(1) revision!: number;
  /** True when only the text changed (no new cluster version): §6 rule 1. */
  @IsBoolean() textOnlyChange!: boolean;
  /** The result content as submitted to the API (payload builder input, see docs/payload.md). */
  @IsObject() content!: Record<string, unknown>;
  /** Per-result receiver field values entered on the Delivery tab. */
  @IsOptional() @IsObject() fieldValues?: Record<string, unknown>;
  /** The `result.fields-set` version `fieldValues` is (0: none saved yet); optional so older producers stay valid. */
  @IsOptional() @IsInt() @Min(0) fieldValuesVersion?: number;
}

export const ResultRevised = defineEvent({
  type: 'result.revised',
  topic: TOPICS.RESULT_REVISED,
  schemaVersion: 1,
  payloadClass: ResultRevisedPayload,
  keyOf: (p: ResultRevisedPayload) => p.resultId,
});
