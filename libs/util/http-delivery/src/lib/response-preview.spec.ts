import { responsePreview } from './response-preview';

const answer = { status: 400, headers: {}, body: '', bodyTruncated: false };

describe('responsePreview', () => {
  it('is null when no answer arrived', () => {
    expect(responsePreview({ ...answer, status: null, body: 'ignored' })).toBeNull();
  });

  it('keeps the headers, joins repeated ones, and keeps the body as received', () => {
    expect(responsePreview({ ...answer, headers: { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }, body: '{"error":"<bad>"}' }))
      .toEqual({ headers: { 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' }, body: '{"error":"<bad>"}', truncated: false });
  });

  it('cuts the body at the byte limit and says so', () => {
    const preview = responsePreview({ ...answer, body: 'x'.repeat(5000) }, 4096);
    expect(preview?.body).toHaveLength(4096);
    expect(preview?.truncated).toBe(true);
  });

  it('passes on a truncation send-attempt reported', () => {
    expect(responsePreview({ ...answer, body: 'short', bodyTruncated: true })?.truncated).toBe(true);
  });

  it('drops the headers past the limit, keeping those before it', () => {
    const headers = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, 'v'.repeat(100)]));
    const preview = responsePreview({ ...answer, headers }, 4096);
    const kept = Object.keys(preview?.headers ?? {});
    expect(kept.length).toBeGreaterThan(30);
    expect(kept.length).toBeLessThan(40);
    expect(kept[0]).toBe('x-h0');
    expect(preview?.truncated).toBe(true);
  });
});
