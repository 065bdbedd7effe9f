import { deriveSeoDescription } from './seo-description';

describe('deriveSeoDescription', () => {
  it('keeps text that fits, with whitespace collapsed', () => {
    expect(deriveSeoDescription('  Short   lead.\nSecond line. ')).toBe('Short lead. Second line.');
  });

  it('cuts longer text on a word boundary to at most 160 characters', () => {
    const text = `${'word '.repeat(40)}end`;
    const result = deriveSeoDescription(text);
    expect(result.length).toBeLessThanOrEqual(160);
    expect(result.endsWith('word')).toBe(true);
  });

  it('drops punctuation and spaces left at the cut', () => {
    expect(deriveSeoDescription('Alpha beta, gamma delta', 12)).toBe('Alpha beta');
    expect(deriveSeoDescription('Alpha beta. Gamma', 11)).toBe('Alpha beta');
  });

  it('counts code points, not UTF-16 units', () => {
    const text = '😀'.repeat(10);
    expect(deriveSeoDescription(text, 10)).toBe(text);
    expect(Array.from(deriveSeoDescription(`${text} more`, 10))).toHaveLength(10);
  });

  it('cuts a single word longer than the limit hard', () => {
    expect(deriveSeoDescription('a'.repeat(200))).toBe('a'.repeat(160));
  });
});
