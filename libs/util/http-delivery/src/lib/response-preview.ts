import type { AttemptResult } from './attempt-result';

/** How much of a receiver's answer an attempt keeps: the first 4 KiB of the body, and headers up to 4 KiB. */
export const RESPONSE_PREVIEW_BYTES = 4 * 1024;

/** The receiver's answer as an attempt record keeps it (what a customer needs to fix a 4xx). */
export interface ResponsePreview {
  /** Header names (lower case) and values; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The first bytes of the body as UTF-8 text, never decompressed. */
  body: string;
  /** True when the body or the headers were longer than what is kept. */
  truncated: boolean;
}

/**
 * Bounds an answer for storage: headers in the order received until their names and values reach
 * `maxBytes` (the rest dropped), the body cut at `maxBytes` bytes (send-attempt already stopped reading there).
 * Null when no answer arrived.
 */
export function responsePreview(result: Pick<AttemptResult, 'status' | 'headers' | 'body' | 'bodyTruncated'>, maxBytes = RESPONSE_PREVIEW_BYTES): ResponsePreview | null {
  if (result.status === null) return null;
  const headers: Record<string, string> = {};
  let size = 0;
  let truncated = result.bodyTruncated;
  for (const [name, raw] of Object.entries(result.headers)) {
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    size += Buffer.byteLength(name) + Buffer.byteLength(value) + 4;
    if (size > maxBytes) {
      truncated = true;
      break;
    }
    headers[name] = value;
  }
  const bytes = Buffer.from(result.body, 'utf8');
  if (bytes.length > maxBytes) truncated = true;
  // A multi-byte character cut at the limit decodes to U+FFFD rather than failing.
  const body = bytes.length > maxBytes ? bytes.subarray(0, maxBytes).toString('utf8') : result.body;
  return { headers, body, truncated };
}
