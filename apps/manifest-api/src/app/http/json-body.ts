import type { IncomingMessage, ServerResponse } from 'node:http';
import { instanceOf, writeProblem } from './problem.filter';
import { PROBLEM_BASE, problems } from './problem';
import { problemForStatus } from './problem-defaults';
import { NotUtf8Error } from './json-text';

/** Largest accepted request body: 1 MiB. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Deepest nesting of objects and arrays accepted; the deepest real body (result content) has fewer than 10 levels. */
export const MAX_JSON_DEPTH = 32;

type Next = (err?: unknown) => void;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first key (outermost first) named `__proto__`, `constructor` or `prototype` in a parsed body. JSON.parse makes
 * such a key an ordinary own property, but class-transformer would silently drop it, so it is refused instead. Read
 * after parsing rather than by a reviver, which made JSON.parse four times slower on every body (docs/performance.md,
 * twenty-ninth round); the parsed value is the same either way.
 */
export function forbiddenKey(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = forbiddenKey(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) if (FORBIDDEN_KEYS.has(key)) return key;
  for (const item of Object.values(value)) {
    const found = forbiddenKey(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** 400 naming the forbidden key of a parsed body (`forbiddenKey`). Runs after parsing, before any other check of it. */
export function refuseForbiddenKeys(req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: Next): void {
  const key = forbiddenKey(req.body);
  if (key === undefined) return next();
  const problem = problems.validation([{ field: key, message: 'this key is not allowed' }], `The request body carries the forbidden key "${key}".`);
  writeProblem(res, problem.toProblem(instanceOf(req)));
}

export function mediaType(req: IncomingMessage): string | undefined {
  return req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
}

function charset(req: IncomingMessage): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1].toLowerCase();
}

/** JSON without a charset is UTF-8 (RFC 8259); body-parser would also decode UTF-16 and UTF-32, which the API does not take. */
function isUtf8Json(req: IncomingMessage): boolean {
  const declared = charset(req);
  return mediaType(req) === 'application/json' && (declared === undefined || declared === 'utf-8' || declared === 'utf8');
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** 415 for a body that is not UTF-8 JSON (the only media type the API reads); `skip` lets other parsers own a path. */
export function requireJsonBodies(skip: (req: IncomingMessage) => boolean) {
  return function requireJson(req: IncomingMessage, res: ServerResponse, next: Next): void {
    if (!hasBody(req) || skip(req) || isUtf8Json(req)) return next();
    writeProblem(res, {
      type: `${PROBLEM_BASE}unsupported-media-type`, title: 'Unsupported media type', status: 415,
      detail: 'Request bodies must be application/json in UTF-8.', instance: instanceOf(req),
    });
  };
}

/** Raised by `refuseDeepNesting`; body-parser keeps its `status` and `type` instead of a 403 `entity.verify.failed`. */
class NestingTooDeepError extends Error {
  readonly status = 400;
  readonly type = 'entity.too.deep';

  constructor() {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

// " \ { } [ ]
const [QUOTE, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d];

/**
 * body-parser `verify` hook: refuses a body nested deeper than MAX_JSON_DEPTH before it is parsed. The key check and
 * class-transformer recurse once per level, so a few thousand levels overflowed the stack (a 500). The bytes are
 * UTF-8 (`requireJsonBodies`), whose multi-byte sequences never contain these ASCII bytes.
 */
export function refuseDeepNesting(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) throw new NestingTooDeepError();
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
}

interface ParserError {
  status?: number;
  type?: string;
  message?: string;
}

/** Position of a JSON syntax error, never the text around it (the body may hold a secret). */
function position(err: unknown): string {
  const match = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  return match ? ` near position ${match[1]}` : '';
}

/** Turns body-parser errors (size, syntax, charset) into problems. Arity 4 marks it as error middleware. */
export function bodyParserErrors(err: unknown, req: IncomingMessage, res: ServerResponse, next: Next): void {
  const parserError = (typeof err === 'object' && err !== null ? err : {}) as ParserError;
  const instance = instanceOf(req);
  if (parserError.type === 'entity.too.deep') {
    writeProblem(res, {
      type: `${PROBLEM_BASE}nesting-too-deep`, title: 'Request body nested too deeply', status: 400, instance,
      detail: `Objects and arrays in the request body may be nested at most ${MAX_JSON_DEPTH} levels deep.`,
    });
  } else if (parserError.type === 'entity.too.large') {
    writeProblem(res, problemForStatus(413, `Request bodies are limited to ${BODY_LIMIT_BYTES} bytes.`, instance));
  } else if (parserError.type === 'entity.parse.failed') {
    writeProblem(res, {
      type: `${PROBLEM_BASE}malformed-json`, title: 'Malformed JSON', status: 400, instance,
      detail: `The request body is not valid JSON${position(err)}.`,
    });
  } else if (err instanceof NotUtf8Error) {
    writeProblem(res, problemForStatus(415, 'The request body is not valid UTF-8.', instance));
  } else if (parserError.type === 'charset.unsupported' || parserError.type === 'encoding.unsupported') {
    writeProblem(res, problemForStatus(415, 'Request bodies must be UTF-8 JSON without content encoding.', instance));
  } else if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    writeProblem(res, problemForStatus(parserError.status, 'The request body could not be read.', instance));
  } else {
    next(err);
  }
}
