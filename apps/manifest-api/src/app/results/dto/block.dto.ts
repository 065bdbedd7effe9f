import { ApiProperty, ApiPropertyOptional } from '../../openapi/api-docs';
import { ArrayMaxSize, Equals, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { BLOCK_TYPES } from '@owd/payload';

const HTTP_URL = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };

/** Target of a block whose `type` is unknown: it fails on `type`. */
export class UnknownBlockDto {
  @ApiProperty({ enum: BLOCK_TYPES }) @IsIn(BLOCK_TYPES) type!: string;
}

export class ParagraphBlockDto {
  @ApiProperty({ enum: ['paragraph'] }) @Equals('paragraph') type!: 'paragraph';
  @ApiProperty() @IsString() text!: string;
}

export class HeadingBlockDto {
  @ApiProperty({ enum: ['heading'] }) @Equals('heading') type!: 'heading';
  @ApiProperty({ minimum: 1, maximum: 6 }) @IsInt() @Min(1) @Max(6) level!: 1 | 2 | 3 | 4 | 5 | 6;
  @ApiProperty() @IsString() text!: string;
}

export class ListBlockDto {
  @ApiProperty({ enum: ['list'] }) @Equals('list') type!: 'list';
  @ApiProperty() @IsBoolean() ordered!: boolean;
  @ApiProperty({ type: [String] }) @IsArray() @IsString({ each: true }) items!: string[];
}

export class QuoteBlockDto {
  @ApiProperty({ enum: ['quote'] }) @Equals('quote') type!: 'quote';
  @ApiProperty() @IsString() text!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() cite?: string;
}

export class TableBlockDto {
  @ApiProperty({ enum: ['table'] }) @Equals('table') type!: 'table';
  @ApiProperty({ type: [String] }) @IsArray() @IsString({ each: true }) header!: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } })
  @IsArray() @ArrayMaxSize(10_000) @IsArray({ each: true }) rows!: string[][];
}

export class ImageBlockDto {
  @ApiProperty({ enum: ['image'] }) @Equals('image') type!: 'image';
  @ApiProperty({ format: 'uri' }) @IsUrl(HTTP_URL) url!: string;
  @ApiProperty() @IsString() alt!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() attribution?: string;
}

export class EmbedBlockDto {
  @ApiProperty({ enum: ['embed'] }) @Equals('embed') type!: 'embed';
  @ApiProperty({ format: 'uri' }) @IsUrl(HTTP_URL) url!: string;
  @ApiPropertyOptional() @IsOptional() @IsString() provider?: string;
}

export const BLOCK_DTOS = [ParagraphBlockDto, HeadingBlockDto, ListBlockDto, QuoteBlockDto, TableBlockDto, ImageBlockDto, EmbedBlockDto];

/** class-transformer picks the block class by `type` (docs/payload.md, block model). */
export const BLOCK_DISCRIMINATOR = {
  property: 'type',
  subTypes: BLOCK_DTOS.map((value, i) => ({ name: BLOCK_TYPES[i], value })),
};
