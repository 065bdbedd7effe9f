import type sanitizeHtml from 'sanitize-html';

// Loaded on the first body that needs it (see markdown.renderer.ts).
const sanitizer = () => require('sanitize-html') as typeof import('sanitize-html');

export const BODY_TAGS: readonly string[] = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li',
  'strong', 'em', 's', 'code', 'pre', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
];
export const ALIGNMENTS: readonly string[] = ['text-align:left', 'text-align:center', 'text-align:right'];
export const LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];
export const IMAGE_SCHEMES: readonly string[] = ['http', 'https'];
const TEXT_ALIGN = [{ name: 'style', multiple: false, values: [...ALIGNMENTS] }];

// sanitize-html empties a style value outside the list but keeps a bare `style`; drop the attribute instead.
function alignOnly(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { style, ...rest } = attribs;
  return { tagName, attribs: style !== undefined && ALIGNMENTS.includes(style) ? { ...rest, style } : rest };
}

/** Allowlist for body HTML: what markdown-it emits for articles, nothing that runs code. */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...BODY_TAGS],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    code: ['class'],
    th: TEXT_ALIGN,
    td: TEXT_ALIGN,
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: [...IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Exact-value style allowlist above; parsing CSS with postcss would cost a third of the render time.
  parseStyleAttributes: false,
  disallowedTagsMode: 'discard',
  transformTags: { th: alignOnly, td: alignOnly },
};

/** Defence in depth: markdown-it already escapes raw HTML, this guarantees no script, on* or javascript: survives. */
export function sanitizeBodyHtml(html: string): string {
  return sanitizer()(html, OPTIONS);
}
