import { RequestFailureReason, RequestVerifyOptions, RequestVerifyResult, verifyRawBody, verifyRequest } from './request';
import type { IncomingRequest } from './request';

/** The parts of node's ServerResponse (and so Express's) the middleware uses. */
export interface OutgoingResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/** After a successful check: the exact bytes, and the JSON parsed from them. */
export interface VerifiedRequest extends IncomingRequest {
  body?: unknown;
  rawBody?: Buffer;
}

type Next = (error?: unknown) => void;

/**
 * Connect-style middleware for Express and node:http: keeps the raw body (or uses the Buffer left by
 * express.raw), verifies it, then sets req.rawBody and req.body (parsed JSON). Answers 401 on a failed
 * check, 413 on a body over the limit, 400 on a body that is not JSON.
 */
export function verifyMiddleware(secret: string, options: RequestVerifyOptions = {}) {
  return (req: VerifiedRequest, res: OutgoingResponse, next: Next): void => {
    const pending = Buffer.isBuffer(req.body)
      ? Promise.resolve(verifyRawBody(secret, req.headers, req.body, options))
      : req.body === undefined
        ? verifyRequest(secret, req, options)
        : Promise.resolve<RequestVerifyResult>({ ok: false, reason: 'body_already_parsed' });
    void pending.then((result) => {
      if (!result.ok) return answer(res, statusFor(result.reason), result.reason);
      const parsed = parseJson(result.rawBody);
      if (parsed === INVALID) return answer(res, 400, 'invalid_json');
      req.rawBody = result.rawBody;
      req.body = parsed;
      next();
    }, next);
  };
}

/** Fastify: `app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepRawJson)`. */
export function keepRawJson(_req: unknown, body: Buffer | string, done: (error: Error | null, body?: Buffer) => void): void {
  done(null, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'));
}

/** The parts of a Fastify reply the hook uses. */
export interface ReplyLike {
  code(status: number): ReplyLike;
  send(body: unknown): unknown;
}

/** Fastify preHandler (after keepRawJson): verifies request.body's bytes, then sets rawBody and the parsed body. */
export function fastifyPreHandler(secret: string, options: RequestVerifyOptions = {}) {
  return async (request: { headers: VerifiedRequest['headers']; body?: unknown; rawBody?: Buffer }, reply: ReplyLike): Promise<void> => {
    const result: RequestVerifyResult = Buffer.isBuffer(request.body)
      ? verifyRawBody(secret, request.headers, request.body, options)
      : { ok: false, reason: 'body_unreadable' };
    if (!result.ok) {
      await reply.code(statusFor(result.reason)).send({ error: result.reason });
      return;
    }
    const parsed = parseJson(result.rawBody);
    if (parsed === INVALID) {
      await reply.code(400).send({ error: 'invalid_json' });
      return;
    }
    request.rawBody = result.rawBody;
    request.body = parsed;
  };
}

const INVALID = Symbol('invalid');

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return INVALID;
  }
}

function statusFor(reason: RequestFailureReason): number {
  // 401 and 413 are 4xx, so the service does not retry them; fix the cause and retry by hand.
  if (reason === 'body_already_parsed') return 500; // a JSON parser ran first: a setup error, and retried
  return reason === 'body_too_large' ? 413 : reason === 'body_unreadable' ? 400 : 401;
}

function answer(res: OutgoingResponse, status: number, reason: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ error: reason }));
}
