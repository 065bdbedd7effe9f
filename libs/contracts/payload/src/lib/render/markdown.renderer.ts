import type { MarkdownIt, Token } from 'markdown-it';
import { sanitizeBodyHtml } from './html.sanitizer';
import { LruCache } from './lru-cache';

/** A markdown body rendered once: sanitized HTML plus the plain text of its first paragraph. */
export interface RenderedBody {
  html: string;
  firstParagraph: string;
}

// Default preset = CommonMark + GFM tables + strikethrough; raw HTML off so markdown cannot smuggle tags.
// Made, and markdown-it loaded, on the first render: the API loads this library for its constants and renders only
// for a Send test, so it does not keep the renderers' modules in memory for nothing (docs/performance.md, "A pod's
// memory").
let md: MarkdownIt | undefined;
const markdownIt = (): MarkdownIt =>
  (md ??= new (require('markdown-it') as typeof import('markdown-it'))('default', { html: false, linkify: false, typographer: false, breaks: false }));

// Rendering dominates build time; the result is a pure function of the markdown, so rebuilds of a revision reuse it.
const cache = new LruCache<string, RenderedBody>(256);

export function renderMarkdown(markdown: string): RenderedBody {
  const cached = cache.get(markdown);
  if (cached !== undefined) return cached;
  const parser = markdownIt();
  const tokens = parser.parse(markdown, {});
  const rendered: RenderedBody = {
    html: sanitizeBodyHtml(parser.renderer.render(tokens, parser.options, {})),
    firstParagraph: firstParagraphText(tokens),
  };
  cache.set(markdown, rendered);
  return rendered;
}

/** Empties the render cache; for benchmarks that measure cold rendering. */
export function clearRenderCache(): void {
  cache.clear();
}

function firstParagraphText(tokens: Token[]): string {
  const open = tokens.findIndex((t) => t.type === 'paragraph_open' && t.level === 0);
  const inline = open >= 0 ? tokens[open + 1] : undefined;
  if (inline === undefined || inline.children === null) return '';
  return inline.children.map(inlineText).join('').replace(/\s+/g, ' ').trim();
}

function inlineText(token: Token): string {
  switch (token.type) {
    case 'text':
    case 'code_inline':
      return token.content;
    case 'softbreak':
    case 'hardbreak':
      return ' ';
    case 'image':
      return token.children === null ? '' : token.children.map(inlineText).join('');
    default:
      return '';
  }
}
