import type { MarkdownIt, Token } from 'markdown-it';
import { ALIGNMENTS, BODY_TAGS, IMAGE_SCHEMES, LINK_SCHEMES, sanitizeBodyHtml } from './html.sanitizer';
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
const markdownIt = (): MarkdownIt => (md ??= sanitizedForm(newMarkdownIt()));

const newMarkdownIt = (): MarkdownIt =>
  new (require('markdown-it') as typeof import('markdown-it'))('default', {
    html: false,
    linkify: false,
    typographer: false,
    breaks: false,
    xhtmlOut: true,
  });

// Rendering dominates build time; the result is a pure function of the markdown, so rebuilds of a revision reuse it.
const cache = new LruCache<string, RenderedBody>(256);

/**
 * The body's HTML is what sanitize-html makes of markdown-it's output. Re-parsing the HTML cost more than rendering
 * it, so markdown-it writes HTML in the form sanitize-html writes it, and a body whose tokens stay inside the
 * sanitizer's allowlist skips the sanitizer: for such a body the sanitizer would return its input unchanged
 * (markdown.renderer.differential.spec.ts holds the two paths to the same bytes). Any other body still goes through it.
 */
export function renderMarkdown(markdown: string): RenderedBody {
  const cached = cache.get(markdown);
  if (cached !== undefined) return cached;
  const parser = markdownIt();
  const tokens = parser.parse(markdown, {});
  const html = parser.renderer.render(tokens, parser.options, {});
  const rendered: RenderedBody = {
    html: withinAllowlist(parser, tokens) ? html : sanitizeBodyHtml(html),
    firstParagraph: firstParagraphText(tokens),
  };
  cache.set(markdown, rendered);
  return rendered;
}

/** Empties the render cache; for benchmarks that measure cold rendering. */
export function clearRenderCache(): void {
  cache.clear();
}

// sanitize-html decodes the HTML and escapes text as `& < >` and attribute values as `& < > "`; markdown-it also
// escapes `"` in text. Void elements it closes as `<br />` (xhtmlOut above).
// Most text has none of the three: tested first, as markdown-it's own escapeHtml does (half the time of replace alone).
const TEXT_SPECIAL = /[&<>]/;
const escapeText = (text: string): string =>
  TEXT_SPECIAL.test(text) ? text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')) : text;

function sanitizedForm(parser: MarkdownIt): MarkdownIt {
  const rules = parser.renderer.rules;
  rules.text = (tokens, idx) => escapeText(tokens[idx].content);
  rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx].content)}</code>`;
  rules.code_block = (tokens, idx) => `<pre><code>${escapeText(tokens[idx].content)}</code></pre>\n`;
  rules.fence = (tokens, idx) => {
    const language = fenceLanguage(parser, tokens[idx].info);
    const attrs = language === '' ? '' : ` class="${parser.utils.escapeHtml(`language-${language}`)}"`;
    return `<pre><code${attrs}>${escapeText(tokens[idx].content)}</code></pre>\n`;
  };
  return parser;
}

// As markdown-it's own fence rule reads the info string.
function fenceLanguage(parser: MarkdownIt, info: string): string {
  return info === '' ? '' : parser.utils.unescapeAll(info).trim().split(/\s+/)[0];
}

const TAGS = new Set(BODY_TAGS);
// Token types whose rules above or markdown-it's renderToken write exactly the token's tag and attributes.
const TYPES = new Set([
  'paragraph_open', 'paragraph_close', 'heading_open', 'heading_close', 'blockquote_open', 'blockquote_close',
  'bullet_list_open', 'bullet_list_close', 'ordered_list_open', 'ordered_list_close', 'list_item_open',
  'list_item_close', 'hr', 'code_block', 'fence', 'table_open', 'table_close', 'thead_open', 'thead_close',
  'tbody_open', 'tbody_close', 'tr_open', 'tr_close', 'th_open', 'th_close', 'td_open', 'td_close', 'inline',
  'text', 'softbreak', 'hardbreak', 'code_inline', 'em_open', 'em_close', 'strong_open', 'strong_close', 's_open',
  's_close', 'link_open', 'link_close', 'image',
]);
// A language the sanitizer's `language-*` class pattern keeps as it is.
const LANGUAGE = /^[\w#+.-]+$/;
const hasScheme = (url: string, schemes: readonly string[]): boolean => {
  const colon = url.indexOf(':');
  return colon > 0 && schemes.includes(url.slice(0, colon).toLowerCase());
};

/**
 * True when every tag and attribute these tokens render to is one the sanitizer keeps unchanged: allowed tags, and
 * attributes only where OPTIONS allows them, with the values it allows (schemes, alignments, non-empty). Anything
 * else — a relative link, a data: image, an unusual fence language — answers false and takes the sanitizer.
 */
function withinAllowlist(parser: MarkdownIt, tokens: Token[]): boolean {
  for (const token of tokens) {
    if (!TYPES.has(token.type) || (token.tag !== '' && !TAGS.has(token.tag))) return false;
    if (token.type === 'fence') {
      const language = fenceLanguage(parser, token.info);
      if (language !== '' && !LANGUAGE.test(language)) return false;
    }
    if (!attributesAllowed(token)) return false;
    // An inline token's children are checked in turn; an image's are not, since they only make its alt text.
    if (token.type === 'inline' && token.children !== null && !withinAllowlist(parser, token.children)) return false;
  }
  return true;
}

function attributesAllowed(token: Token): boolean {
  if (token.attrs === null) return true;
  return token.attrs.every(([name, raw]) => {
    const value = String(raw);
    switch (`${token.type} ${name}`) {
      case 'link_open href':
        return hasScheme(value, LINK_SCHEMES);
      case 'image src':
        return hasScheme(value, IMAGE_SCHEMES);
      case 'image alt':
        return true;
      case 'link_open title':
      case 'image title':
      case 'ordered_list_open start':
        return value !== '';
      case 'th_open style':
      case 'td_open style':
        return ALIGNMENTS.includes(value);
      default:
        return false;
    }
  });
}

// Text whose whitespace is already single spaces: most paragraphs, for which the replace below would change nothing.
// Tested first, as escapeText does: the test reads the text once, the replace costs a match per space (a fifth of
// the render's time for a paragraph of prose).
const UNCOLLAPSED_SPACE = /\s\s|[^\S ]/;

function firstParagraphText(tokens: Token[]): string {
  const open = tokens.findIndex((t) => t.type === 'paragraph_open' && t.level === 0);
  const inline = open >= 0 ? tokens[open + 1] : undefined;
  if (inline === undefined || inline.children === null) return '';
  return collapseWhitespace(inline.children.map(inlineText).join('')).trim();
}

/** Every run of whitespace as one space: `text.replace(/\s+/g, ' ')`, without the replace when it would change nothing. */
export function collapseWhitespace(text: string): string {
  return UNCOLLAPSED_SPACE.test(text) ? text.replace(/\s+/g, ' ') : text;
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
