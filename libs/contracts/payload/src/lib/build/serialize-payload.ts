import { PayloadV5 } from '../types/payload.types';

/**
 * The exact bytes to send (and sign): compact JSON, UTF-8, no trailing newline.
 * Key order is the insertion order `buildPayload` fixed, so equal payloads give equal bytes.
 */
export function serializePayload(payload: PayloadV5): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}
