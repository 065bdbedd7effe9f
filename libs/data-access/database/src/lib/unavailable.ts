/** Socket errors of a database that is down, restarting or unreachable. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATEs of a server going away or not taking work: shutdown, starting up, too many connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** pg's messages for a connection lost without a code. */
const LOST = /Connection terminated|connection timeout|Client has encountered a connection error/i;

/**
 * True when `err` (from pg or typeorm, which wraps pg's error as `driverError`) says the database is not
 * reachable right now, rather than that the query was wrong: a caller answers "try again" (HTTP 503)
 * instead of "internal error".
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && LOST.test(message)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
