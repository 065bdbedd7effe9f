import { Writable } from 'node:stream';
import { pino } from 'pino';
import { QueryFailedError } from 'typeorm';
import { loggerParams } from './logger-params';
import { serializeError, serializeRequest } from './log-serializers';

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

describe('serializeRequest (the `req` of every log line in a request)', () => {
  it('logs the path without the query string and without the parsed query', () => {
    const out = serializeRequest({ id: 1, method: 'GET', url: `/api/goals?access_token=owd_secret&note=${MARKER}`, query: { note: MARKER }, headers: {} });
    expect(out).toEqual({ id: 1, method: 'GET', url: '/api/goals', headers: {} });
  });
});
