import { responsePreview } from './response-preview';

const answer = { status: 400, headers: {}, bodyBytes: Buffer.alloc(0), bodyTruncated: false };
const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('responsePreview', () => {
  it('is null when no answer arrived', () => {
    expect(responsePreview({ ...answer, status: null, bodyBytes: bytes('ignored') })).toBeNull();
  });

  it('keeps the headers, joins repeated ones, and keeps the body as received', () => {
    expect(responsePreview({ ...answer, headers: { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }, bodyBytes: bytes('{"error":"<bad>"}') }))
      .toEqual({ headers: { 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' }, body: '{"error":"<bad>"}', bodyEncoding: 'utf-8', truncated: false });
  });

  it('cuts the body at the byte limit and says so', () => {
    const preview = responsePreview({ ...answer, bodyBytes: bytes('x'.repeat(5000)) }, 4096);
    expect(preview?.body).toHaveLength(4096);
    expect(preview?.truncated).toBe(true);
  });

  it('leaves out a character the cut split, and keeps the text before it as text', () => {
    const preview = responsePreview({ ...answer, bodyBytes: bytes(`${'x'.repeat(4094)}€tail`) }, 4096); // € is 3 bytes
    expect(preview).toMatchObject({ body: 'x'.repeat(4094), bodyEncoding: 'utf-8', truncated: true });
  });

  it('keeps bytes that are not UTF-8 (or hold NUL) as received, in base64, never decoded with U+FFFD', () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0x41]);
    expect(responsePreview({ ...answer, bodyBytes: binary })).toMatchObject({ body: binary.toString('base64'), bodyEncoding: 'base64' });
    const withNul = Buffer.from('{"a":"x\0y"}', 'utf8'); // valid UTF-8, but PostgreSQL text cannot hold NUL
    expect(responsePreview({ ...answer, bodyBytes: withNul })).toMatchObject({ body: withNul.toString('base64'), bodyEncoding: 'base64' });
  });

  it('passes on a truncation send-attempt reported', () => {
    expect(responsePreview({ ...answer, bodyBytes: bytes('short'), bodyTruncated: true })?.truncated).toBe(true);
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
