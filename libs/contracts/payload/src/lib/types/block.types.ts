/** Text in blocks is plain text (no markup): the receiver escapes and styles it itself. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** Block types a paragraph can stand in for when the receiver cannot render them (§1 fallback). */
export type ParagraphFallbackOf = 'heading' | 'list' | 'quote' | 'table' | 'image' | 'embed';

export interface ParagraphBlock {
  type: 'paragraph';
  /** Present only when this paragraph replaces a block the receiver cannot render. */
  fallback_of?: ParagraphFallbackOf;
  text: string;
}

export interface HeadingBlock {
  type: 'heading';
  level: HeadingLevel;
  text: string;
}

export interface ListBlock {
  type: 'list';
  /** Present only when this list replaces a table the receiver cannot render. */
  fallback_of?: 'table';
  ordered: boolean;
  items: string[];
}

export interface QuoteBlock {
  type: 'quote';
  text: string;
  cite?: string;
}

export interface TableBlock {
  type: 'table';
  header: string[];
  rows: string[][];
}

export interface ImageBlock {
  type: 'image';
  url: string;
  alt: string;
  attribution?: string;
}

export interface EmbedBlock {
  type: 'embed';
  url: string;
  provider?: string;
}

export type Block = ParagraphBlock | HeadingBlock | ListBlock | QuoteBlock | TableBlock | ImageBlock | EmbedBlock;

type WithoutFallback<T> = T extends unknown ? Omit<T, 'fallback_of'> : never;

/** A block as the result carries it: fallback markers are only ever set by the builder. */
export type BlockInput = WithoutFallback<Block>;
