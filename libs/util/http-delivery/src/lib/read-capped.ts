import type { Readable } from 'node:stream';

/**
 * Reads at most `maxBytes` of a response body and then drops the connection's rest of it, so a huge
 * or endless body costs neither memory nor time. Bytes are kept as sent (no decompression).
 */
export async function readCapped(body: Readable, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += Math.max(room, 0);
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (truncated) body.destroy();
  return { bytes: Buffer.concat(chunks, size), truncated };
}
