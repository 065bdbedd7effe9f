import { sanitizeBodyHtml } from './html.sanitizer';

describe('sanitizeBodyHtml', () => {
  it('removes script elements with their content', () => {
    expect(sanitizeBodyHtml('<p>a</p><script>alert(1)</script>')).toBe('<p>a</p>');
  });

  it('removes on* handlers and javascript: URLs', () => {
    const html = sanitizeBodyHtml('<a href="javascript:alert(1)" onclick="x()">a</a><img src="javascript:x" onerror="y()">');
    expect(html).not.toMatch(/javascript:|onclick|onerror/);
    expect(html).toContain('>a</a>');
  });

  it('keeps http, https and mailto links', () => {
    const html = '<a href="https://a.example">a</a><a href="http://b.example">b</a><a href="mailto:c@example.com">c</a>';
    expect(sanitizeBodyHtml(html)).toBe(html);
  });

  it('keeps headings, blockquotes, lists and tables with alignment', () => {
    const html =
      '<h1>1</h1><h6>6</h6><blockquote><p>q</p></blockquote><ol start="3"><li>i</li></ol>' +
      '<table><thead><tr><th style="text-align:center">h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>';
    expect(sanitizeBodyHtml(html)).toBe(html);
  });

  it('drops style values other than text alignment, and tags outside the allowlist', () => {
    expect(sanitizeBodyHtml('<table><tr><td style="background:url(x)">d</td></tr></table>')).toBe('<table><tr><td>d</td></tr></table>');
    expect(sanitizeBodyHtml('<table><tr><th style="text-align:left;color:red">h</th></tr></table>')).toBe('<table><tr><th>h</th></tr></table>');
    expect(sanitizeBodyHtml('<iframe src="https://x.example"></iframe><p>p</p>')).toBe('<p>p</p>');
  });
});
