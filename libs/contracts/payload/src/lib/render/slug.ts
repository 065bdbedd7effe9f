import { SLUG_MAX_CHARS } from '../payload.constants';
import { LruCache } from './lru-cache';

// transliteration (its character map is ~3 MB of heap) is loaded on the first title that is not printable ASCII (see
// markdown.renderer.ts).
const transliteration = () => require('transliteration') as typeof import('transliteration');

// Transliteration is a tenth of a warm build; a slug is a pure function of the title, so rebuilds reuse it.
const cache = new LruCache<string, string>(256);

/** URL slug: transliterated to ASCII, lowercase, hyphen-separated, at most SLUG_MAX_CHARS, cut between words. */
export function deriveSlug(text: string): string {
  const cached = cache.get(text);
  if (cached !== undefined) return cached;
  const slug = cutSlug(PRINTABLE_ASCII.test(text) ? asciiSlug(text) : transliteratedSlug(text), SLUG_MAX_CHARS);
  cache.set(text, slug);
  return slug;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The slug of a title of printable ASCII, which has nothing to transliterate: what the library gives for it (a test
 * compares the two on thousands of titles), without it. The library merges its options and walks its character map
 * on every call, ~15 µs a title, once per payload built, since titles differ from result to result.
 */
export function asciiSlug(text: string): string {
  return text.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-+|-+$/g, '').toLowerCase();
}

/** The slug through the library: transliterated to ASCII first. */
export function transliteratedSlug(text: string): string {
  return transliteration().slugify(text, { lowercase: true, separator: '-', allowedChars: 'a-zA-Z0-9', trim: true });
}

/** Shortens a slug to `maxChars` at the last hyphen; a single word longer than that is cut hard rather than emptied. */
export function cutSlug(slug: string, maxChars: number): string {
  if (slug.length <= maxChars) return slug;
  const lastHyphen = slug.slice(0, maxChars + 1).lastIndexOf('-');
  return (lastHyphen > 0 ? slug.slice(0, lastHyphen) : slug.slice(0, maxChars)).replace(/-+$/, '');
}
