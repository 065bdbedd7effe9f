import { clearRenderCache, collapseWhitespace, renderMarkdown } from './markdown.renderer';

describe('renderMarkdown', () => {
  it('renders ## headings, GFM tables and blockquotes', () => {
    const { html } = renderMarkdown('## Head\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n> quoted');
    expect(html).toContain('<h2>Head</h2>');
    expect(html).toContain('<th>a</th>');
    expect(html).toContain('<td style="text-align:right">2</td>');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
  });

  it('escapes raw HTML instead of passing it through (html: false)', () => {
    const { html } = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('does not turn javascript: links into anchors', () => {
    const { html } = renderMarkdown('[x](javascript:alert(1)) [y](https://example.com) [z](mailto:a@example.com)');
    expect(html).not.toContain('javascript:" ');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<a href="https://example.com">y</a>');
    expect(html).toContain('<a href="mailto:a@example.com">z</a>');
  });

  it('extracts the plain text of the first top-level paragraph', () => {
    const { firstParagraph } = renderMarkdown('## Title\n\n> not this\n\nThe **first** [real](https://x.example) `para`\ngraph.\n\nSecond.');
    expect(firstParagraph).toBe('The first real para graph.');
  });

  it('gives "" as first paragraph when the body has none', () => {
    expect(renderMarkdown('## Only a heading').firstParagraph).toBe('');
  });

  it('renders the same markdown to the same HTML with and without the cache', () => {
    const markdown = '## A\n\nText with *emphasis*.';
    const cached = renderMarkdown(markdown);
    expect(renderMarkdown(markdown)).toBe(cached);
    clearRenderCache();
    expect(renderMarkdown(markdown)).toEqual(cached);
  });
});

describe('collapseWhitespace', () => {
  // Every JavaScript whitespace kind the first paragraph's text can hold, beside letters.
  const alphabet = ['a', 'b', ' ', ' ', ' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff'];

  it('gives what replacing every whitespace run by one space gives, on 20,000 generated texts', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join('');
      expect(collapseWhitespace(text)).toBe(text.replace(/\s+/g, ' '));
    }
  });

  it('hands back text whose spaces are single as it is', () => {
    const text = 'The first real para graph. (and more)';
    expect(collapseWhitespace(text)).toBe(text);
    expect(collapseWhitespace(' a ')).toBe(' a ');
  });
});
