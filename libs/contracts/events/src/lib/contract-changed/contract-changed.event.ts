import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, MaxLength, Min, ValidateNested,
} from 'class-validator';
import { defineEvent } from '../envelope/event-definition';
import { TOPICS } from '../topics';

export const FIELD_TYPES = ['enum', 'text', 'bool'] as const;

export class ReceiverFieldOption {
  @IsString() value!: string;
  @IsString() label!: string;
}

/** A receiver-defined field (§2.4), as it applies to the goal's contract. */
export class ReceiverFieldDefinition {
  @Matches(/^[a-z0-9_]+$/) @MaxLength(40) key!: string;
  @IsString() label!: string;
  @IsIn(FIELD_TYPES) type!: (typeof FIELD_TYPES)[number];
  @IsBoolean() required!: boolean;
  @IsBoolean() multiple!: boolean;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ReceiverFieldOption)
  options?: ReceiverFieldOption[];
}

/** A goal's content contract was established from a receiver report or set by hand. */
export class ContractChangedPayload {
  @IsUUID() goalId!: string;
  @IsUUID() workspaceId!: string;
  @IsInt() @Min(1) version!: number;
  @IsIn(['receiver', 'manual']) origin!: 'receiver' | 'manual';
  @IsArray() @IsString({ each: true }) sectionTypes!: string[];
  @IsArray() @IsString({ each: true }) blockTypes!: string[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => ReceiverFieldDefinition)
  fields!: ReceiverFieldDefinition[];
}

export const ContractChanged = defineEvent({
  type: 'contract.changed',
  topic: TOPICS.CONTRACT_CHANGED,
  schemaVersion: 1,
  payloadClass: ContractChangedPayload,
  keyOf: (p: ContractChangedPayload) => p.goalId,
});
