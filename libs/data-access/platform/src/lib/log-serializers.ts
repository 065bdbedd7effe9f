/** Members of a database error that name things (never carry values): SQLSTATE, constraint, table, column. */
const NAMING_MEMBERS = ['code', 'constraint', 'table', 'column'] as const;

interface ErrorLike {
  message: string;
  name?: string;
  stack?: string;
  cause?: unknown;
  query?: unknown;
  raw?: unknown;
  [member: string]: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) quote the offending value (`invalid input syntax for type uuid:
 * "…"`) or its bytes (`… for encoding "UTF8": 0x00`) in their message: those parts are hidden, encoding names kept.
 */
function withoutValues(message: string, code: unknown): string {
  if (typeof code !== 'string' || !code.startsWith('22')) return message;
  return message.replace(/(?<!encoding )"[\s\S]*"/, '"[value hidden]"').replace(/0x[0-9a-f]{2}(\s+0x[0-9a-f]{2})*/gi, '[bytes hidden]');
}

/**
 * pino serializer for `err`: type, message, naming members (code, constraint, …), the query text and the stack,
 * and nothing else. An error's other members are data: TypeORM's QueryFailedError carries every parameter of the
 * failed query (`parameters`) and pg's `detail`/`where` quote rows, which the standard serializer would all log.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  // The services' logger hands over the error itself (logger-params.ts: wrapSerializers false); a copy made by
  // pino's standard serializer, as pino-http makes by default, carries the error as `raw`.
  const err = isErrorLike(value) && isErrorLike(value.raw) ? value.raw : value;
  if (!isErrorLike(err)) return value;
  const type = typeof err.constructor === 'function' && err.constructor !== Object ? err.constructor.name : err.name ?? 'Error';
  const message = withoutValues(err.message, err['code']);
  const out: Record<string, unknown> = { type, message };
  for (const member of NAMING_MEMBERS) if (typeof err[member] === 'string') out[member] = err[member];
  if (typeof err.query === 'string') out['query'] = err.query;
  if (typeof err.stack === 'string') out['stack'] = err.stack.replace(err.message, message);
  if (err.cause !== undefined && depth < 3) out['cause'] = serializeError(err.cause, depth + 1);
  return out;
}

/** What the request serializer reads of an incoming request (Node's, as Express hands it over). */
export interface LoggedRequestSource {
  method?: string;
  url?: string;
  originalUrl?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string } | null;
}

/** The `req` of the request log: what identifies the call, nothing the caller wrote into it. */
export interface LoggedRequest {
  method?: string;
  url?: string;
  remoteAddress?: string;
  userAgent?: string;
  contentLength?: number;
}

/** The `res` of the request log. */
export interface LoggedResponse {
  statusCode: number;
  contentLength?: number;
}

/** Longest `User-Agent` logged: the caller chooses it, and it is on every line of its requests. */
export const USER_AGENT_LOGGED_CHARS = 256;

function lengthOf(value: unknown): number | undefined {
  const length = typeof value === 'string' && value !== '' ? Number(value) : value;
  return typeof length === 'number' && Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * pino serializer for `req` (pino-http's standard one is not wrapped around it): the method, the path without its
 * query string (which may carry content or a token), the peer's address, the `User-Agent` (its first 256 characters)
 * and the body's declared length. No other header: they carry credentials (Authorization, Cookie), content the caller chose
 * (Idempotency-Key, any X- header) and, on every request, most of the line's bytes.
 */
export function serializeRequest(req: LoggedRequestSource): LoggedRequest {
  const url = typeof req.originalUrl === 'string' ? req.originalUrl : req.url;
  const out: LoggedRequest = { method: req.method, url: typeof url === 'string' ? url.split('?')[0] : url };
  const remoteAddress = req.socket?.remoteAddress;
  if (remoteAddress !== undefined) out.remoteAddress = remoteAddress;
  const userAgent = req.headers['user-agent'];
  if (typeof userAgent === 'string') out.userAgent = userAgent.slice(0, USER_AGENT_LOGGED_CHARS);
  const contentLength = lengthOf(req.headers['content-length']);
  if (contentLength !== undefined) out.contentLength = contentLength;
  return out;
}

/** pino serializer for `res`: the status and the body's length; the response's headers are the service's own. */
export function serializeResponse(res: { statusCode: number; getHeader?: (name: string) => unknown }): LoggedResponse {
  const out: LoggedResponse = { statusCode: res.statusCode };
  const contentLength = lengthOf(res.getHeader?.('content-length'));
  if (contentLength !== undefined) out.contentLength = contentLength;
  return out;
}
