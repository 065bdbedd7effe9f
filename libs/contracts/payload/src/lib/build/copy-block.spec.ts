import { BlockInput } from '../types/block.types';
import { copyBlock } from './copy-block';

describe('copyBlock', () => {
  it('writes keys in a fixed order whatever the input order', () => {
    const input = { text: 'Q', cite: 'C', type: 'quote' } as BlockInput;
    expect(Object.keys(copyBlock(input))).toEqual(['type', 'text', 'cite']);
  });

  it('drops keys the block type does not define', () => {
    const input = { type: 'paragraph', text: 'P', html: '<b>P</b>' } as BlockInput;
    expect(copyBlock(input)).toEqual({ type: 'paragraph', text: 'P' });
  });

  it('leaves out optional keys that are absent or null', () => {
    const input = JSON.parse('{"type":"embed","url":"https://v.example/1","provider":null}') as BlockInput;
    expect(copyBlock(input)).toEqual({ type: 'embed', url: 'https://v.example/1' });
  });

  it('refuses an unknown block type and a heading level outside 1..6', () => {
    expect(() => copyBlock(JSON.parse('{"type":"video","url":"x"}') as BlockInput)).toThrow(
      expect.objectContaining({ code: 'unknown_block_type' }),
    );
    expect(() => copyBlock(JSON.parse('{"type":"heading","level":7,"text":"x"}') as BlockInput)).toThrow(
      expect.objectContaining({ code: 'invalid_number' }),
    );
  });
});
