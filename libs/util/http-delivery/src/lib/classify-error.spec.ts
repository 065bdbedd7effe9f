import { classifyError } from './classify-error';

const context = { timedOut: false, timeoutMs: 3000, aborted: false };
const undiciError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe('classifyError', () => {
  it.each([
    ['headers', undiciError('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error')],
    ['body', undiciError('UND_ERR_BODY_TIMEOUT', 'Body Timeout Error')],
    ['headers, wrapped', new Error('fetch failed', { cause: undiciError('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error') })],
  ])('calls undici\'s own %s timer firing before the deadline a timeout, not a connection failure', (_name, error) => {
    expect(classifyError(error, context)).toMatchObject({ outcome: 'retriable', errorClass: 'timeout', errorMessage: 'no complete answer within 3000 ms' });
  });

  it('calls the attempt\'s deadline a timeout whatever the error says', () => {
    expect(classifyError(new Error('This operation was aborted'), { ...context, timedOut: true })).toMatchObject({ errorClass: 'timeout' });
  });

  it('calls a refused or reset connection a connection failure, naming its code', () => {
    expect(classifyError(undiciError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), context)).toMatchObject({
      outcome: 'retriable', errorClass: 'connection_failed', errorMessage: 'connection failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(classifyError(undiciError('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'), context)).toMatchObject({ errorClass: 'connection_failed' });
  });

  it('calls an attempt its caller aborted aborted', () => {
    expect(classifyError(new Error('aborted'), { ...context, aborted: true })).toMatchObject({ errorClass: 'aborted' });
  });
});
