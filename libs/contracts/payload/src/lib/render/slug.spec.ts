import { asciiSlug, cutSlug, deriveSlug, transliteratedSlug } from './slug';

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

  it('gives a printable ASCII title the slug the transliteration library gives it', () => {
    // Titles from a fixed generator: letters of both cases, digits, and every other printable character, runs of
    // separators at either end and inside.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['a', 'Z', 'q', '7', '0', ' ', '-', '_', '.', "'", '(', ')', '~', '/', '&', '!', '"', '`', '{', '|', '}', '^', '\\'];
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
    for (let i = 0; i < 5_000; i++) {
      const pool = i % 2 === 0 ? alphabet : printable;
      const title = Array.from({ length: Math.floor(next() * 40) }, () => pool[Math.floor(next() * pool.length)]).join('');
      expect(asciiSlug(title)).toBe(transliteratedSlug(title));
    }
    expect(asciiSlug('Bridge repair approved (12)')).toBe('bridge-repair-approved-12');
  });

  it('transliterates a title that is not printable ASCII', () => {
    expect(deriveSlug('Zürich\tnews')).toBe(transliteratedSlug('Zürich\tnews'));
    expect(deriveSlug('Tab\there')).toBe('tab-here');
  });
});
