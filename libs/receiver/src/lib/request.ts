import type { HeaderRecord } from './header-lookup';
import type { VerifyFailureReason, VerifyOptions } from './verify';
import { verify } from './verify';
import { verifyBearer } from './verify-bearer';
import type { BearerFailureReason } from './verify-bearer';

/** Anything node:http, Express and Fastify hand you as the incoming request. */
export interface IncomingRequest extends AsyncIterable<Uint8Array | string> {
  headers: HeaderRecord;
}

export type RequestFailureReason = VerifyFailureReason | BearerFailureReason | 'body_too_large' | 'body_unreadable' | 'body_already_parsed';

export type RequestVerifyResult = { ok: true; rawBody: Buffer } | { ok: false; reason: RequestFailureReason };

export interface RequestVerifyOptions extends VerifyOptions {
  /** 'signature' (default) checks X-SH-Signature; 'bearer' checks only Authorization: Bearer <secret>. */
  method?: 'signature' | 'bearer';
  /** Largest body read before giving up, in bytes. */
  limitBytes?: number;
}

export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** Reads the raw body of a node request and checks it; resolves with a reason instead of rejecting. */
export async function verifyRequest(secret: string, req: IncomingRequest, options: RequestVerifyOptions = {}): Promise<RequestVerifyResult> {
  const body = await readRawBody(req, options.limitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
  return typeof body === 'string' ? { ok: false, reason: body } : verifyRawBody(secret, req.headers, body, options);
}

/** The check for a body already read as bytes (express.raw, Fastify's buffer parser). */
export function verifyRawBody(secret: string, headers: HeaderRecord, rawBody: Buffer, options: RequestVerifyOptions = {}): RequestVerifyResult {
  const check = options.method === 'bearer' ? verifyBearer(secret, headers) : verify(secret, headers, rawBody, options);
  return check.ok ? { ok: true, rawBody } : check;
}

/** The body bytes as they arrived, or why they could not be read. */
export async function readRawBody(req: AsyncIterable<Uint8Array | string>, limitBytes: number): Promise<Buffer | 'body_too_large' | 'body_unreadable'> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      size += bytes.length;
      if (size > limitBytes) return 'body_too_large';
      chunks.push(bytes);
    }
  } catch {
    // An aborted upload is the sender's problem, not a reason to crash the receiver.
    return 'body_unreadable';
  }
  return Buffer.concat(chunks);
}
