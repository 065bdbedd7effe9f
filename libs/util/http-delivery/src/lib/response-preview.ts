import type { AttemptResult } from './attempt-result';

/** How much of a receiver's answer an attempt keeps: the first 4 KiB of the body, and headers up to 4 KiB. */
export const RESPONSE_PREVIEW_BYTES = 4 * 1024;

/** `utf-8`: the body is the kept bytes as text; `base64`: they are not text (or hold NUL), so they are kept in base64. */
export const BODY_ENCODINGS = ['utf-8', 'base64'] as const;
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** The receiver's answer as an attempt record keeps it (what a customer needs to fix a 4xx). */
export interface ResponsePreview {
  /** Header names (lower case) and values; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The first bytes of the body exactly as received (never decompressed), in `bodyEncoding`. */
  body: string;
  bodyEncoding: BodyEncoding;
  /** True when the body or the headers were longer than what is kept. */
  truncated: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The kept bytes as text when they are UTF-8 without NUL (what JSON stores in PostgreSQL can hold); a character
 * the cut split in two is left out. Anything else stays bytes, in base64: stored as received, never decoded lossily.
 */
function keptBody(bytes: Buffer, cut: boolean): Pick<ResponsePreview, 'body' | 'bodyEncoding'> {
  // A cut can split one character of up to 4 bytes: up to 3 trailing bytes may belong to it.
  for (let drop = 0; drop <= (cut ? 3 : 0) && drop <= bytes.length; drop++) {
    try {
      const text = strictUtf8.decode(bytes.subarray(0, bytes.length - drop));
      if (!text.includes('\u0000')) return { body: text, bodyEncoding: 'utf-8' };
      break;
    } catch {
      // not (yet) valid: try without one more trailing byte of a split character
    }
  }
  return { body: bytes.toString('base64'), bodyEncoding: 'base64' };
}

/**
 * Bounds an answer for storage: headers in the order received until their names and values reach
 * `maxBytes` (the rest dropped), the body cut at `maxBytes` bytes (send-attempt already stopped reading there).
 * Null when no answer arrived.
 */
export function responsePreview(
  result: Pick<AttemptResult, 'status' | 'headers' | 'bodyBytes' | 'bodyTruncated'>, maxBytes = RESPONSE_PREVIEW_BYTES,
): ResponsePreview | null {
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
  const cut = result.bodyBytes.length > maxBytes;
  if (cut) truncated = true;
  return { headers, ...keptBody(cut ? result.bodyBytes.subarray(0, maxBytes) : result.bodyBytes, truncated), truncated };
}
