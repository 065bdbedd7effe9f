import { Equals, IsArray, IsBoolean, IsIn, IsInt, IsString, IsUrl, Max, Min } from 'class-validator';
import { BLOCK_TYPES } from '../payload.constants';
import {
  EmbedBlock,
  HeadingBlock,
  HeadingLevel,
  ImageBlock,
  ListBlock,
  ParagraphBlock,
  ParagraphFallbackOf,
  QuoteBlock,
  TableBlock,
} from '../types/block.types';
import { OptionalKey } from './validators/optional-key';

const HTTP_URL = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };
const PARAGRAPH_FALLBACK_OF: ParagraphFallbackOf[] = ['heading', 'list', 'quote', 'table', 'image', 'embed'];

/** Target of a block whose `type` matches no known block: fails on `type`. */
export class UnknownBlockDto {
  @IsIn(BLOCK_TYPES) type!: string;
}

export class ParagraphBlockDto implements ParagraphBlock {
  @Equals('paragraph') type!: 'paragraph';
  @OptionalKey() @IsIn(PARAGRAPH_FALLBACK_OF) fallback_of?: ParagraphFallbackOf;
  @IsString() text!: string;
}

export class HeadingBlockDto implements HeadingBlock {
  @Equals('heading') type!: 'heading';
  @IsInt() @Min(1) @Max(6) level!: HeadingLevel;
  @IsString() text!: string;
}

export class ListBlockDto implements ListBlock {
  @Equals('list') type!: 'list';
  @OptionalKey() @Equals('table') fallback_of?: 'table';
  @IsBoolean() ordered!: boolean;
  @IsArray() @IsString({ each: true }) items!: string[];
}

export class QuoteBlockDto implements QuoteBlock {
  @Equals('quote') type!: 'quote';
  @IsString() text!: string;
  @OptionalKey() @IsString() cite?: string;
}

export class TableBlockDto implements TableBlock {
  @Equals('table') type!: 'table';
  @IsArray() @IsString({ each: true }) header!: string[];
  @IsArray() @IsArray({ each: true }) rows!: string[][];
}

export class ImageBlockDto implements ImageBlock {
  @Equals('image') type!: 'image';
  @IsUrl(HTTP_URL) url!: string;
  @IsString() alt!: string;
  @OptionalKey() @IsString() attribution?: string;
}

export class EmbedBlockDto implements EmbedBlock {
  @Equals('embed') type!: 'embed';
  @IsUrl(HTTP_URL) url!: string;
  @OptionalKey() @IsString() provider?: string;
}

/** class-transformer picks the block class by `type`. */
export const BLOCK_DISCRIMINATOR = {
  property: 'type',
  subTypes: [
    { name: 'paragraph', value: ParagraphBlockDto },
    { name: 'heading', value: HeadingBlockDto },
    { name: 'list', value: ListBlockDto },
    { name: 'quote', value: QuoteBlockDto },
    { name: 'table', value: TableBlockDto },
    { name: 'image', value: ImageBlockDto },
    { name: 'embed', value: EmbedBlockDto },
  ],
};
