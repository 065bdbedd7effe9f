import { PayloadInputError } from '../errors/payload-input.error';
import { Block, BlockInput } from '../types/block.types';

/** Rebuilds a block key by key: fixed key order, unknown input keys dropped, absent optionals left out. */
export function copyBlock(block: BlockInput): Block {
  switch (block.type) {
    case 'paragraph':
      return { type: 'paragraph', text: block.text };
    case 'heading':
      return { type: 'heading', level: checkedLevel(block.level), text: block.text };
    case 'list':
      return { type: 'list', ordered: block.ordered, items: [...block.items] };
    case 'quote':
      return { type: 'quote', text: block.text, ...optional('cite', block.cite) };
    case 'table':
      return { type: 'table', header: [...block.header], rows: block.rows.map((row) => [...row]) };
    case 'image':
      return { type: 'image', url: block.url, alt: block.alt, ...optional('attribution', block.attribution) };
    case 'embed':
      return { type: 'embed', url: block.url, ...optional('provider', block.provider) };
    default:
      return unknownBlock(block);
  }
}

// JSON from an event may carry null where the type says "absent"; both mean the key is not sent.
function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return typeof value === 'string' ? ({ [key]: value } as Record<K, string>) : {};
}

function checkedLevel<L extends number>(level: L): L {
  if (!Number.isInteger(level) || level < 1 || level > 6) {
    throw new PayloadInputError('invalid_number', `heading level must be 1..6, got ${String(level)}`);
  }
  return level;
}

function unknownBlock(block: never): never {
  const type = (block as { type?: unknown }).type;
  throw new PayloadInputError('unknown_block_type', `unknown block type ${JSON.stringify(type)}`);
}
