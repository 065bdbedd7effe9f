import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { IsUtcTimestamp } from '../formats/format.decorators';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

/** A required field a report named: enough for the weekly notice to name it. */
export class ReportedRequiredField {
  @Matches(/^[a-z0-9_]+$/) @MaxLength(40) key!: string;
  @IsString() label!: string;
}

/** A receiver (or plugin) reported what it can render; emitted on every report, even an unchanged one. */
export class CapabilityReportedPayload {
  @IsUUID() goalId!: string;
  @IsUUID() workspaceId!: string;
  /** `receiver` for an HTTP-address receiver; anything else is a plugin report (§2.4). */
  @IsString() @MinLength(1) source!: string;
  @IsArray() @IsString({ each: true }) sectionTypes!: string[];
  @IsArray() @IsString({ each: true }) blockTypes!: string[];
  @IsArray() @IsString({ each: true }) fieldKeys!: string[];
  /** The report's required fields; optional so older producers stay valid. */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ReportedRequiredField)
  requiredFields?: ReportedRequiredField[];
  /** When the report arrived at manifest-api (ISO 8601). */
  @IsUtcTimestamp() reportedAt!: string;
}

export const CapabilityReported = defineEvent({
  type: 'capability.reported',
  topic: TOPICS.CAPABILITY_REPORTED,
  schemaVersion: 1,
  payloadClass: CapabilityReportedPayload,
  keyOf: (p: CapabilityReportedPayload) => p.goalId,
});
