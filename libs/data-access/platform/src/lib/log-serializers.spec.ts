import { Writable } from 'node:stream';
import { pino } from 'pino';
import { QueryFailedError } from 'typeorm';
import { loggerParams } from './logger-params';
import { serializeError, serializeRequest, serializeResponse, USER_AGENT_LOGGED_CHARS, type LoggedRequestSource } from './log-serializers';

const MARKER = 'submitted-content-9d2c';
const QUERY = 'INSERT INTO goals (name) VALUES ($1)';

/** A failed query as TypeORM raises it: pg's error (with `detail` and `where` quoting data) wrapped with the parameters. */
function failedQuery(code: string, message: string): QueryFailedError {
  const driverError = Object.assign(new Error(message), { code, detail: `Failing row contains (${MARKER}).`, where: `JSON data: ${MARKER}`, table: 'goals' });
  return new QueryFailedError(QUERY, [MARKER, 42], driverError);
}

/** Log lines written by a logger built from the services' own settings. */
function production(): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const params = loggerParams('test', 'trace', new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  }));
  const [options, destination] = params.pinoHttp as [pino.LoggerOptions, pino.DestinationStream];
  return { log: pino(options, destination), lines };
}

describe('serializeError (the `err` of every service log line)', () => {
  it('keeps type, message, SQLSTATE, table and the query text, and drops the parameters, detail and where of a failed query', () => {
    const out = serializeError(failedQuery('23505', 'duplicate key value violates unique constraint "goals_pkey"'));
    expect(out).toMatchObject({ type: 'QueryFailedError', code: '23505', table: 'goals', query: QUERY, message: expect.stringContaining('goals_pkey') });
    expect(JSON.stringify(out)).not.toContain(MARKER);
  });

  it('hides the value a data exception (SQLSTATE class 22) quotes in its message, also in the stack', () => {
    const out = serializeError(failedQuery('22P02', `invalid input syntax for type uuid: "${MARKER}"`)) as Record<string, string>;
    expect(out['message']).toBe('invalid input syntax for type uuid: "[value hidden]"');
    expect(out['stack']).toMatch(/^QueryFailedError: invalid input syntax for type uuid: "\[value hidden\]"/);
    expect(JSON.stringify(out)).not.toContain(MARKER);
    expect(serializeError(failedQuery('22021', 'invalid byte sequence for encoding "UTF8": 0xc3 0x28'))).toMatchObject({
      message: 'invalid byte sequence for encoding "UTF8": [bytes hidden]',
    });
  });

  it('reads the error behind pino-http\'s standard copy, and passes strings through', () => {
    expect(JSON.stringify(serializeError(pino.stdSerializers.err(failedQuery('23505', 'duplicate key'))))).not.toContain(MARKER);
    expect(serializeError('connection refused')).toBe('connection refused');
  });

  it('keeps the cause of an error, serialized the same way', () => {
    const err = new Error('round failed', { cause: failedQuery('22P02', `invalid input syntax for type integer: "${MARKER}"`) });
    expect(serializeError(err)).toMatchObject({ type: 'Error', message: 'round failed', cause: { type: 'QueryFailedError', query: QUERY } });
    expect(JSON.stringify(serializeError(err))).not.toContain(MARKER);
  });

  it('is what the services log: a failed query logged at any level carries no parameter value', () => {
    const { log, lines } = production();
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const) {
      log[level]({ msg: 'unhandled error', err: failedQuery('22021', 'invalid byte sequence for encoding "UTF8": 0x00') });
    }
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(JSON.parse(line).err).toMatchObject({ type: 'QueryFailedError', query: QUERY, code: '22021' });
      expect(line).not.toContain(MARKER);
    }
  });
});

describe('serializeRequest (the `req` of the request log)', () => {
  const request = (over: Partial<LoggedRequestSource> = {}): LoggedRequestSource => ({
    method: 'POST', url: `/api/goals?access_token=owd_secret&note=${MARKER}`, socket: { remoteAddress: '10.1.2.3' },
    headers: {
      authorization: 'Bearer owd_secret', cookie: `session=${MARKER}`, 'idempotency-key': MARKER, 'x-anything': MARKER,
      'user-agent': 'sdk/2.1', 'content-length': '512',
    },
    ...over,
  });

  it('logs the method, the path without the query string, the peer, the user agent and the declared length, and no other header', () => {
    const out = serializeRequest(request());
    expect(out).toEqual({ method: 'POST', url: '/api/goals', remoteAddress: '10.1.2.3', userAgent: 'sdk/2.1', contentLength: 512 });
    expect(JSON.stringify(out)).not.toMatch(/owd_secret|submitted-content/);
  });

  it('takes the path as it arrived (Express\'s originalUrl) over the one a mounted router rewrote', () => {
    expect(serializeRequest(request({ originalUrl: '/api/results/res_1?x=1', url: '/results/res_1' })).url).toBe('/api/results/res_1');
  });

  it('leaves out what the request does not have: no socket, no user agent, no length or one that is not a whole number of bytes', () => {
    for (const contentLength of [undefined, '', 'abc', '1.5', '-1', '99999999999999999999']) {
      expect(serializeRequest({ method: 'GET', url: '/api/goals', socket: null, headers: { 'content-length': contentLength } })).toEqual({ method: 'GET', url: '/api/goals' });
    }
  });

  it('logs no more than the first 256 characters of a user agent, which the caller chooses', () => {
    const long = 'agent/'.padEnd(10_000, 'x');
    expect(serializeRequest(request({ headers: { 'user-agent': long } })).userAgent).toBe(long.slice(0, USER_AGENT_LOGGED_CHARS));
    expect(USER_AGENT_LOGGED_CHARS).toBe(256);
  });
});

describe('serializeResponse (the `res` of the request log)', () => {
  it('logs the status and the length of the body, none of the response\'s headers', () => {
    const headers: Record<string, unknown> = { 'content-length': '99', etag: 'W/"63-x"', 'x-request-id': 'r-1' };
    expect(serializeResponse({ statusCode: 201, getHeader: (name) => headers[name] })).toEqual({ statusCode: 201, contentLength: 99 });
  });

  it('logs the status alone when the length is not known (a streamed body)', () => {
    expect(serializeResponse({ statusCode: 204, getHeader: () => undefined })).toEqual({ statusCode: 204 });
  });
});

describe('the request log as the services write it', () => {
  it('takes the request and response themselves, not pino-http\'s copies of every header', () => {
    const { log, lines } = production();
    const req = { method: 'GET', url: '/api/goals', socket: { remoteAddress: '127.0.0.1' }, headers: { authorization: 'Bearer owd_secret' } };
    log.info({ req, res: { statusCode: 200, getHeader: () => '17' }, msg: 'request completed' });
    const line = JSON.parse(lines[0]);
    expect([line.req, line.res]).toEqual([{ method: 'GET', url: '/api/goals', remoteAddress: '127.0.0.1' }, { statusCode: 200, contentLength: 17 }]);
    expect(lines[0]).not.toContain('owd_secret');
  });
});
