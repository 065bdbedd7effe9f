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
  // pino-http hands over the standard serializer's copy; `raw` is the error itself.
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

interface SerializedRequest {
  url?: unknown;
  query?: unknown;
  [member: string]: unknown;
}

/** pino serializer for `req`: the path without its query string (which may carry content or a token), no parsed query. */
export function serializeRequest(req: SerializedRequest): SerializedRequest {
  const { query: _query, ...rest } = req;
  return { ...rest, url: typeof req.url === 'string' ? req.url.split('?')[0] : req.url };
}
