import { BlockInput } from '../types/block.types';
import { adaptBlock } from './block-fallback';

const none = new Set<string>();

describe('adaptBlock (§1 fallback)', () => {
  it('sends a supported block unchanged', () => {
    const quote: BlockInput = { type: 'quote', text: 'Q', cite: 'C' };
    expect(adaptBlock(quote, new Set(['quote']))).toEqual([quote]);
  });

  it('always sends paragraphs natively: they are the floor every receiver renders', () => {
    expect(adaptBlock({ type: 'paragraph', text: 'P' }, none)).toEqual([{ type: 'paragraph', text: 'P' }]);
  });

  it.each<[string, BlockInput, string[]]>([
    ['heading', { type: 'heading', level: 2, text: 'Title' }, ['Title']],
    ['ordered list', { type: 'list', ordered: true, items: ['a', 'b'] }, ['1. a', '2. b']],
    ['unordered list', { type: 'list', ordered: false, items: ['a'] }, ['• a']],
    ['quote with cite', { type: 'quote', text: 'Q', cite: 'C' }, ['Q — C']],
    ['quote', { type: 'quote', text: 'Q' }, ['Q']],
    ['table without list support', { type: 'table', header: ['k', 'v'], rows: [['a', '1'], ['b', '2']] }, ['k: a; v: 1', 'k: b; v: 2']],
    ['header-only table', { type: 'table', header: ['k', 'v'], rows: [] }, ['k; v']],
    ['image', { type: 'image', url: 'https://i.example/a.jpg', alt: 'Alt', attribution: 'By X' }, ['Alt: https://i.example/a.jpg (By X)']],
    ['image without alt', { type: 'image', url: 'https://i.example/a.jpg', alt: '' }, ['https://i.example/a.jpg']],
    ['embed', { type: 'embed', url: 'https://v.example/1', provider: 'V' }, ['V: https://v.example/1']],
    ['embed without provider', { type: 'embed', url: 'https://v.example/1' }, ['https://v.example/1']],
  ])('turns an unsupported %s into paragraphs marked with fallback_of', (_case, block, texts) => {
    expect(adaptBlock(block, none)).toEqual(texts.map((text) => ({ type: 'paragraph', fallback_of: block.type, text })));
  });

  it('turns an unsupported table into a list when lists are supported', () => {
    const table: BlockInput = { type: 'table', header: ['Crop', 'Change'], rows: [['Wheat', '-2 %']] };
    expect(adaptBlock(table, new Set(['list']))).toEqual([
      { type: 'list', fallback_of: 'table', ordered: false, items: ['Crop: Wheat; Change: -2 %'] },
    ]);
  });

  it('keeps cells beyond the header without a label', () => {
    const table: BlockInput = { type: 'table', header: ['k'], rows: [['a', 'extra']] };
    expect(adaptBlock(table, none)).toEqual([{ type: 'paragraph', fallback_of: 'table', text: 'k: a; extra' }]);
  });
});
