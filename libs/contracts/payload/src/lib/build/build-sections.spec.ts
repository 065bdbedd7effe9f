import { ContentContractInput } from '../input/content-contract.input';
import { SectionInput } from '../input/result-revision.input';
import { buildSections } from './build-sections';

const timeline: SectionInput = {
  key: 'history',
  type: 'timeline',
  blocks: [
    { type: 'heading', level: 3, text: 'May' },
    { type: 'table', header: ['Day', 'Event'], rows: [['1', 'Start']] },
    { type: 'embed', url: 'https://v.example/1' },
  ],
};

const contract = (sectionTypes: string[], blockTypes: string[]): ContentContractInput => ({ origin: 'receiver', sectionTypes, blockTypes });

describe('buildSections', () => {
  it('sends everything natively when there is no contract yet', () => {
    expect(buildSections([timeline], null)).toEqual([timeline]);
  });

  it('sends a listed section type natively', () => {
    const sections = buildSections([timeline], contract(['timeline'], ['heading', 'table', 'embed']));
    expect(sections).toEqual([timeline]);
  });

  it('sends an unlisted section type as a content section with fallback_of, blocks downgraded', () => {
    expect(buildSections([timeline], contract(['content'], ['heading']))).toEqual([
      {
        key: 'history',
        type: 'content',
        fallback_of: 'timeline',
        blocks: [
          { type: 'heading', level: 3, text: 'May' },
          { type: 'paragraph', fallback_of: 'table', text: 'Day: 1; Event: Start' },
          { type: 'paragraph', fallback_of: 'embed', text: 'https://v.example/1' },
        ],
      },
    ]);
  });

  it('treats content as always renderable, even when the contract does not list it', () => {
    const content: SectionInput = { key: 'main', type: 'content', blocks: [{ type: 'paragraph', text: 'P' }] };
    expect(buildSections([content], contract([], []))).toEqual([content]);
  });

  it('downgrades unsupported blocks inside a supported section too', () => {
    const faq: SectionInput = { key: 'faq', type: 'faq', blocks: [{ type: 'quote', text: 'Q' }] };
    expect(buildSections([faq], contract(['faq'], []))).toEqual([
      { key: 'faq', type: 'faq', blocks: [{ type: 'paragraph', fallback_of: 'quote', text: 'Q' }] },
    ]);
  });

  it('never loses text: every string of the input appears in the fallback output', () => {
    const out = JSON.stringify(buildSections([timeline], contract([], [])));
    for (const text of ['May', 'Day', 'Event', 'Start', 'https://v.example/1']) expect(out).toContain(text);
  });

  it('skips sections without blocks and is undefined (key left out) when none are left', () => {
    const empty: SectionInput = { key: 'e', type: 'faq', blocks: [] };
    expect(buildSections([empty, timeline], null)).toEqual([timeline]);
    expect(buildSections([empty], null)).toBeUndefined();
    expect(buildSections([], null)).toBeUndefined();
  });

  it('writes fallback_of between type and blocks', () => {
    const [section] = buildSections([timeline], contract([], [])) ?? [];
    expect(Object.keys(section ?? {})).toEqual(['key', 'type', 'fallback_of', 'blocks']);
  });
});
