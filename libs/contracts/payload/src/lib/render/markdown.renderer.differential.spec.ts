import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MarkdownIt } from 'markdown-it';
import { sanitizeBodyHtml } from './html.sanitizer';
import { clearRenderCache, renderMarkdown } from './markdown.renderer';

// Counts the bodies that take the sanitizer; it still sanitizes.
jest.mock('./html.sanitizer', () => {
  const actual = jest.requireActual('./html.sanitizer');
  return { ...actual, sanitizeBodyHtml: jest.fn(actual.sanitizeBodyHtml) };
});
const sanitized = sanitizeBodyHtml as jest.MockedFunction<typeof sanitizeBodyHtml>;
const { sanitizeBodyHtml: sanitize } = jest.requireActual('./html.sanitizer') as typeof import('./html.sanitizer');

// The body HTML as it was made before the fast path: markdown-it's own output, always through the sanitizer.
const reference: MarkdownIt = new (require('markdown-it') as typeof import('markdown-it'))('default', {
  html: false,
  linkify: false,
  typographer: false,
  breaks: false,
});
const referenceHtml = (markdown: string): string => sanitize(reference.render(markdown));

function render(markdown: string): { html: string; sanitized: boolean } {
  clearRenderCache();
  sanitized.mockClear();
  const { html } = renderMarkdown(markdown);
  return { html, sanitized: sanitized.mock.calls.length > 0 };
}

// The project's own documents, whole and cut into runs of paragraphs, as prose with every markdown construct.
const docsDir = resolve(__dirname, '../../../../../../docs');
const documents = readdirSync(docsDir)
  .filter((name) => name.endsWith('.md'))
  .map((name) => readFileSync(join(docsDir, name), 'utf8'));
const windows = documents.flatMap((doc) => {
  const blocks = doc.split(/\n{2,}/);
  const out: string[] = [];
  for (let i = 0; i < blocks.length; i += 7) out.push(blocks.slice(i, i + 7).join('\n\n'));
  return out;
});

// Pieces a generated article is made of: safe ones, and every kind of input the sanitizer has to change or reject.
const SAFE = [
  '## A heading with *emphasis*', '# One', '###### Six', 'Plain "quoted" text & an ampersand < > \'apostrophes\'.',
  '**strong** _em_ ~~gone~~ `code "q" <b> &amp;`', '[link](https://example.com/a?b=1&c="2")',
  '[titled](http://example.com "a \\"title\\" & more")', '[mail](mailto:someone@example.com)', '<https://auto.example/x>',
  '![alt "text"](https://img.example/a.png "t")', '![](https://img.example/empty-alt.png)', '![**bold** alt](HTTP://img.example/B.png)',
  '| a | b | c |\n|:--|:-:|--:|\n| 1 | "2" | <3> |', '| x |\n|---|\n| y |', '> quoted\n> > nested', '- tight\n- list\n  - nested',
  '1. one\n2. two', '7. seven\n8. eight', '0. zero', '- loose\n\n- list', '```js\nconst a = "b" < c && d;\n```', '```c++\nx\n```',
  '```\nno language\n```', '    indented "code" <x>', 'line  \nhard break', 'line\\\nbackslash break', 'soft\nbreak', '***',
  'Entities: &amp; &quot; &#39; &nbsp; &copy; &#x1F600; &lt;tag&gt;', 'Unicode: Ціни на зерно — “quotes” ‘single’ 😀',
  'Escapes: \\* \\_ \\` \\< \\& \\"', '[ref link][r]\n\n[r]: https://ref.example/ "ref"', '`` `double` ``',
];
const HOSTILE = [
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'inline <b onclick="x()">html</b> <!-- c -->',
  '[js](javascript:alert(1))', '[JS](JAVASCRIPT:alert(1))', '[vb](vbscript:x)', '[data](data:text/html;base64,PHNjcmlwdD4=)',
  '![data](data:image/png;base64,iVBORw0KGgo=)', '![js](javascript:alert(1))', '![ftp](ftp://img.example/a.png)',
  '![mailto](mailto:a@example.com)', '[relative](/path/page)', '[anchor](#section)', '[proto](//evil.example/x)',
  '[ftp](ftp://files.example/)', '[tel](tel:+123)', '[empty]()', '[spaces](<https://a.example/with space>)',
  '[nul](https://a.example/\u0000x)', 'nul \u0000 char', '```"><script>\nx\n```', '```a<b\ny\n```', '```lang\u00a0x\nz\n```',
  '```   \nblank info\n```', '```&amp;q\nw\n```', '<https://a.example/"onmouseover=x>', '<mailto:x@example.com>',
  '[c](https://a.example/&#x6A;avascript)', 'crlf\r\nline\r\n', '<style>p{}</style>', '<iframe src="https://x"></iframe>',
];

function generated(count: number): string[] {
  let seed = 20261128;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    const parts = Array.from({ length: 2 + next(6) }, () => SAFE[next(SAFE.length)]);
    if (next(3) === 0) parts.splice(next(parts.length + 1), 0, HOSTILE[next(HOSTILE.length)]);
    return parts.join(next(4) === 0 ? '\n' : '\n\n');
  });
}

describe('renderMarkdown, fast path and sanitizer', () => {
  it('gives every document, window and generated article the bytes markdown-it plus the sanitizer gives', () => {
    const inputs = [...documents, ...windows, ...SAFE, ...HOSTILE, ...generated(600)];
    const differing = inputs.filter((markdown) => render(markdown).html !== referenceHtml(markdown)).map((m) => JSON.stringify(m));
    expect(differing).toEqual([]);
  });

  it('renders an article inside the allowlist without the sanitizer, as HTML the sanitizer leaves unchanged', () => {
    for (const markdown of SAFE) {
      const { html, sanitized: wasSanitized } = render(markdown);
      expect({ markdown, wasSanitized }).toEqual({ markdown, wasSanitized: false });
      expect(sanitize(html)).toBe(html);
    }
  });

  it('takes the sanitizer for a body with anything outside the allowlist', () => {
    const outside = [
      '[relative](/path/page)', '[proto](//evil.example/x)', '[ftp](ftp://files.example/)', '[empty]()',
      '![data](data:image/png;base64,iVBORw0KGgo=)', '![mailto](mailto:a@example.com)', '```"><script>\nx\n```',
    ];
    for (const markdown of outside) {
      expect({ markdown, sanitized: render(`Intro.\n\n${markdown}`).sanitized }).toEqual({ markdown, sanitized: true });
    }
  });

  it('takes the fast path for most of the project documents, so the comparison above covers it', () => {
    const fast = windows.filter((markdown) => !render(markdown).sanitized).length;
    expect(fast).toBeGreaterThan(windows.length / 2);
  });
});
