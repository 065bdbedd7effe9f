import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '../../openapi/api-docs';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsNumber, IsObject, IsOptional, IsString, IsUrl, Matches, Min, MinLength, ValidateNested } from 'class-validator';
import { IsRfc3339DateTime } from '@owd/events';
import { LANGUAGE_CODE_PATTERN } from '@owd/payload';
import { BLOCK_DISCRIMINATOR, BLOCK_DTOS, UnknownBlockDto } from './block.dto';


export class LocaleContentDto {
  @ApiProperty({ type: String, nullable: true }) @IsOptional() @IsString() title!: string | null;
  @ApiProperty({ type: String, nullable: true }) @IsOptional() @IsString() lead!: string | null;
  @ApiProperty({ description: 'Markdown' }) @IsString() body!: string;
  @ApiPropertyOptional({ description: 'Derived from the title when absent' }) @IsOptional() @IsString() slug?: string;
  @ApiPropertyOptional({ description: 'Derived from the lead when absent' }) @IsOptional() @IsString() seoDescription?: string;
}

export class StepDto {
  @ApiProperty() @IsString() text!: string;
  @ApiProperty() @IsString() model!: string;
  @ApiProperty({ minimum: 0 }) @IsInt() @Min(0) tokens!: number;
  @ApiProperty({ minimum: 0 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) cost!: number;
}

export class ArticleDto {
  @ApiProperty({ example: 'art_5107' }) @IsString() @MinLength(1) id!: string;
  @ApiProperty() @IsString() title!: string;
  @ApiProperty({ format: 'uri' }) @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }) url!: string;
  @ApiProperty({ description: 'Publication the article comes from' }) @IsString() source!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  @IsOptional() @IsRfc3339DateTime() publishedAt!: string | null;
  @ApiProperty({ example: 'en' }) @IsString() @Matches(LANGUAGE_CODE_PATTERN) lang!: string;
}

export class ClusterDto {
  @ApiProperty() @IsString() @MinLength(1) id!: string;
  @ApiProperty() @IsString() description!: string;
  @ApiProperty({ type: [String] }) @IsArray() @IsString({ each: true }) keywords!: string[];
  @ApiProperty({ minimum: 1 }) @IsInt() @Min(1) version!: number;
}

@ApiExtraModels(...BLOCK_DTOS)
export class SectionDto {
  @ApiProperty({ example: 'main' }) @IsString() @MinLength(1) key!: string;
  @ApiProperty({ example: 'content', description: 'content, faq, key_points, timeline, gallery or another type' })
  @IsString() @MinLength(1) type!: string;

  @ApiProperty({ type: 'array', items: { oneOf: BLOCK_DTOS.map((dto) => ({ $ref: getSchemaPath(dto) })) } })
  @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true })
  @Type(() => UnknownBlockDto, { discriminator: BLOCK_DISCRIMINATOR, keepDiscriminatorProperty: true })
  blocks!: object[];
}

export class ImageDto {
  @ApiProperty({ format: 'uri' }) @IsUrl({ require_protocol: true, protocols: ['http', 'https'], require_tld: false }) url!: string;
  @ApiProperty() @IsString() attribution!: string;
}
