// class-transformer's @Type reads design metadata through the Reflect API.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  Equals,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNotEmptyObject,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  LANGUAGE_CODE_PATTERN,
  PAYLOAD_EVENTS,
  PAYLOAD_MODES,
  PayloadEvent,
  PayloadMode,
  PUBLISH_MODES,
  PublishMode,
  UTC_TIMESTAMP_PATTERN,
} from '../payload.constants';
import { FieldValue, LocaleEntry, PayloadCommon, StepEntry } from '../types/payload.types';
import { LocaleEntryDto, StepEntryDto } from './entries.dto';
import { SectionDto } from './section.dto';
import { ArticleDto, ClusterDto, ImageDto } from './sources.dto';
import { IsFieldValues } from './validators/field-values.validator';
import { Nullable, OptionalKey } from './validators/optional-key';
import { countRules, eventRules, modeRules, PresenceRules } from './validators/presence-rules.validator';
import { RecordOf } from './validators/record-of.validator';

const ANY_STEP_NAME = /^.+$/;

/** payload_version 5 with its presence rules; validate with `validatePayload`. */
export class PayloadV5Dto implements PayloadCommon {
  @Equals(5) payload_version!: 5;
  @IsIn(PAYLOAD_MODES) @PresenceRules(modeRules) mode!: PayloadMode;
  @IsIn(PAYLOAD_EVENTS) @PresenceRules(eventRules) event!: PayloadEvent;
  @IsString() @IsNotEmpty() result_id!: string;
  @IsInt() @Min(1) revision!: number;
  @IsString() @IsNotEmpty() workflow_execution!: string;
  @IsString() workflow_name!: string;
  @Nullable() @IsString() title!: string | null;
  @Nullable() @IsString() lead!: string | null;
  @Matches(UTC_TIMESTAMP_PATTERN) executed_at!: string;
  @Matches(UTC_TIMESTAMP_PATTERN) published_at!: string;
  @IsString() @Matches(LANGUAGE_CODE_PATTERN) source_lang!: string;
  @IsInt() @Min(0) @PresenceRules(countRules) articles_count!: number;
  @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ArticleDto) articles!: ArticleDto[];
  @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ClusterDto) clusters!: ClusterDto[];
  @Nullable() @IsString() llm_response!: string | null;
  @OptionalKey() @IsObject() @RecordOf(LocaleEntryDto, LANGUAGE_CODE_PATTERN) locales?: Record<string, LocaleEntry>;
  @IsObject() @RecordOf(StepEntryDto, ANY_STEP_NAME) steps!: Record<string, StepEntry>;
  @IsString() ai_model!: string;
  @IsInt() @Min(0) tokens_used!: number;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) cost!: number;

  // @IsObject({ each }) beside @ValidateNested({ each }): alone, it checks the members of an array given as an element.
  // §2.3: absent when there is nothing to send; when present, never empty.
  @OptionalKey() @IsArray() @ArrayNotEmpty() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => SectionDto) sections?: SectionDto[];
  @OptionalKey() @IsObject() @ValidateNested() @Type(() => ImageDto) image?: ImageDto;
  @OptionalKey() @IsArray() @ArrayNotEmpty() @IsString({ each: true }) tags?: string[];
  @OptionalKey() @IsIn(PUBLISH_MODES) publish_mode?: PublishMode;
  @OptionalKey() @IsNotEmptyObject() @IsFieldValues() fields?: Record<string, FieldValue>;
  @ValidateIf((_payload: object, value: unknown) => value !== undefined && value !== null)
  @IsString()
  parent_execution?: string | null;
  @OptionalKey() @IsArray() @IsString({ each: true }) new_articles?: string[];
}
