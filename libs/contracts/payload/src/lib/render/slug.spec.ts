import { cutSlug, deriveSlug } from './slug';

describe('deriveSlug', () => {
  it.each([
    ['Über die Brücke: 5 Gründe', 'uber-die-brucke-5-grunde'],
    ['Ціни на зерно падають', 'cini-na-zerno-padayut'],
    ['Hello_World. v2.0 ~ test', 'hello-world-v2-0-test'],
    ["l'été à Paris", 'l-ete-a-paris'],
    ['  ---  ', ''],
  ])('%s -> %s', (title, slug) => {
    expect(deriveSlug(title)).toBe(slug);
  });

  it('keeps slugs to 100 characters, cut between words', () => {
    const slug = deriveSlug('word '.repeat(30));
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug.endsWith('-word')).toBe(true);
  });

  it('cuts a long slug at the last hyphen that fits', () => {
    expect(cutSlug('alpha-beta-gamma', 12)).toBe('alpha-beta');
    expect(cutSlug('alpha-beta-gamma', 10)).toBe('alpha-beta');
  });

  it('cuts a single over-long word hard', () => {
    expect(cutSlug('abcdefghijklmnop', 5)).toBe('abcde');
  });
});
