import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '../../openapi/api-docs';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Min, ValidateNested,
} from 'class-validator';
import { IsRfc3339DateTime } from '@owd/events';
import { LANGUAGE_CODE_PATTERN, PAYLOAD_MODES, type PayloadMode } from '@owd/payload';
import { RecordOf } from '../../http/record-of.validator';
import { OptionalNotNull } from '../../http/validators';
import { ArticleDto, ClusterDto, ImageDto, LocaleContentDto, SectionDto, StepDto } from './content-parts.dto';

/** Most results one batch intake carries (the most one intake transaction writes). */
export const MAX_BATCH_RESULTS = 100;

export const STEP_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * The content of a result (camelCase, like the payload builder's ResultRevisionInput without the ids the API
 * assigns: resultId, revision, workflowExecution, parentExecution). Absent optional keys take the defaults shown.
 */
@ApiExtraModels(LocaleContentDto, StepDto)
export class ResultContentDto {
  @ApiProperty({ enum: PAYLOAD_MODES, description: 'article: generated content; cluster: the cluster with its source articles' })
  @IsIn(PAYLOAD_MODES)
  mode!: PayloadMode;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-21T10:00:00+00:00', description: 'When the result was created (executed_at, published_at), RFC 3339 with offset, e.g. 2026-11-23T10:00:00+02:00; default: now' })
  @OptionalNotNull() @IsRfc3339DateTime()
  executedAt?: string;

  @ApiPropertyOptional({ type: String, nullable: true, default: null, example: 'Grain prices fall for a third week' }) @IsOptional() @IsString() title?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, default: null, example: 'Harvest estimates rose again.', description: "The editor's standfirst" })
  @IsOptional() @IsString() lead?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, default: null, example: 'Grain prices fell for a third week.\n\n## What traders watch\n\n- Export quotas', description: 'Markdown of the source language; required in article mode' })
  @IsOptional() @IsString() body?: string | null;

  @ApiPropertyOptional({ example: 'en', description: "Default: the goal's source language" })
  @OptionalNotNull() @IsString() @Matches(LANGUAGE_CODE_PATTERN)
  sourceLang?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { $ref: getSchemaPath(LocaleContentDto) }, default: {}, description: 'Content per language code' })
  @OptionalNotNull() @RecordOf(LocaleContentDto, LANGUAGE_CODE_PATTERN)
  locales?: Record<string, LocaleContentDto>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { $ref: getSchemaPath(StepDto) }, default: {}, description: 'Keyed by workflow step name' })
  @OptionalNotNull() @RecordOf(StepDto, STEP_NAME_PATTERN)
  steps?: Record<string, StepDto>;

  @ApiPropertyOptional({ type: [ArticleDto], default: [] })
  @OptionalNotNull() @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ArticleDto)
  articles?: ArticleDto[];

  @ApiPropertyOptional({ type: [ClusterDto], default: [] })
  @OptionalNotNull() @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ClusterDto)
  clusters?: ClusterDto[];

  @ApiPropertyOptional({ type: [SectionDto], default: [] })
  @OptionalNotNull() @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => SectionDto)
  sections?: SectionDto[];

  @ApiPropertyOptional({ type: ImageDto, nullable: true, default: null, description: 'Only when someone chose a featured image' })
  // @IsObject here and on every element above: @ValidateNested alone accepts arrays (of images, of articles) as well.
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ImageDto)
  image?: ImageDto | null;

  @ApiProperty({ example: 'gpt-4.1' }) @IsString() aiModel!: string;
  @ApiProperty({ minimum: 0, example: 1840 }) @IsInt() @Min(0) tokensUsed!: number;
  @ApiProperty({ minimum: 0, example: 0.0068 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) cost!: number;
}

/** A changed content: a text change, or with `newArticles` a new cluster version (§6). */
export class ReviseContentDto extends ResultContentDto {
  @ApiPropertyOptional({
    type: [String], example: ['art_5107'],
    description: 'Articles that joined the cluster in this version (ids from `articles`). Present and non-empty = new cluster version.',
  })
  @OptionalNotNull() @IsArray() @IsString({ each: true })
  newArticles?: string[];
}

/** Results handed to one goal together (`POST /api/goals/{id}/results/batch`): all are accepted, or none. */
export class ResultBatchDto {
  @ApiProperty({ type: [ResultContentDto], minItems: 1, maxItems: MAX_BATCH_RESULTS, description: `1 to ${MAX_BATCH_RESULTS} contents, each as in POST /api/goals/{id}/results` })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_BATCH_RESULTS) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => ResultContentDto)
  results!: ResultContentDto[];
}
