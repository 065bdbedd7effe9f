import { BASELINE_BLOCK_TYPE } from '../payload.constants';
import { Block, BlockInput, ParagraphBlock, ParagraphFallbackOf, TableBlock } from '../types/block.types';
import { copyBlock } from './copy-block';

/**
 * A block the receiver can render is sent as is; any other becomes paragraphs (a table: a list when lists are
 * supported) marked with `fallback_of`, so its text still arrives (§1). Paragraphs are the floor every receiver renders.
 */
export function adaptBlock(input: BlockInput, supported: ReadonlySet<string>): Block[] {
  const block = copyBlock(input);
  if (block.type === BASELINE_BLOCK_TYPE || supported.has(block.type)) return [block];
  switch (block.type) {
    case 'heading':
      return [paragraph('heading', block.text)];
    case 'list':
      return block.items.map((item, i) => paragraph('list', block.ordered ? `${i + 1}. ${item}` : `• ${item}`));
    case 'quote':
      return [paragraph('quote', block.cite === undefined ? block.text : `${block.text} — ${block.cite}`)];
    case 'table':
      return tableFallback(block, supported);
    case 'image':
      return [paragraph('image', withAttribution(block.alt === '' ? block.url : `${block.alt}: ${block.url}`, block.attribution))];
    case 'embed':
      return [paragraph('embed', block.provider === undefined ? block.url : `${block.provider}: ${block.url}`)];
  }
}

function tableFallback(table: TableBlock, supported: ReadonlySet<string>): Block[] {
  const lines = (table.rows.length > 0 ? table.rows.map((row) => rowText(table.header, row)) : [table.header.join('; ')])
    .filter((line) => line !== '');
  if (lines.length === 0) return [];
  if (supported.has('list')) return [{ type: 'list', fallback_of: 'table', ordered: false, items: lines }];
  return lines.map((line) => paragraph('table', line));
}

// "Header: cell" keeps each value readable without the grid.
function rowText(header: readonly string[], row: readonly string[]): string {
  return row
    .map((cell, i) => {
      const label = header[i];
      return label === undefined || label === '' ? cell : `${label}: ${cell}`;
    })
    .join('; ');
}

function withAttribution(text: string, attribution: string | undefined): string {
  return attribution === undefined || attribution === '' ? text : `${text} (${attribution})`;
}

function paragraph(fallbackOf: ParagraphFallbackOf, text: string): ParagraphBlock {
  return { type: 'paragraph', fallback_of: fallbackOf, text };
}
