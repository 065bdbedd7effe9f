import { SEO_DESCRIPTION_MAX_CHARS } from '../payload.constants';

const TRAILING_PUNCTUATION_OR_SPACE = /[\s\p{P}]+$/u;

/**
 * Meta description: whitespace collapsed, at most `maxChars` code points.
 * Text that fits is kept whole; longer text is cut at the last word boundary and loses trailing punctuation and spaces.
 */
export function deriveSeoDescription(text: string, maxChars: number = SEO_DESCRIPTION_MAX_CHARS): string {
  const normalized = text.replace(/\s+/g, ' ').trim();
  // UTF-16 length is an upper bound of the code point count, so most texts skip the array copy.
  if (normalized.length <= maxChars) return normalized;
  const chars = Array.from(normalized);
  if (chars.length <= maxChars) return normalized;
  const head = chars.slice(0, maxChars + 1).join('');
  const lastSpace = head.lastIndexOf(' ');
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : chars.slice(0, maxChars).join('');
  return cut.replace(TRAILING_PUNCTUATION_OR_SPACE, '');
}
