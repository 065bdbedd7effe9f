import { createServer, request, type ServerResponse } from 'node:http';
import { storage } from 'nestjs-pino/storage';
import { loggerParams } from './logger-params';
import { requestLogger } from './request-logger';

describe('requestLogger: the request line', () => {
  // A real HTTP server with the request logger as the services configure it, and the lines it writes.
  async function serve(status: number): Promise<{ lines: Array<Record<string, unknown>>; children: number }> {
    const lines: string[] = [];
    const params = loggerParams('svc', 'info', { write: (line: string) => lines.push(line) });
    let children = 0;
    params.pinoHttp[0].onChild = () => (children += 1);
    const logRequest = requestLogger(params);
    if (logRequest === undefined) throw new Error('the request logger is on by default');
    const server = createServer((req, res) => logRequest(req, res, () => {
      storage.getStore()?.logger.info({ step: 'handled' }, 'inside the handler');
      res.statusCode = status;
      res.setHeader('content-length', '2');
      res.end('{}');
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/v1/results?token=secret-in-query`, {
      method: 'POST', body: '{}', headers: {
        authorization: 'Bearer t0ken', cookie: 'session=c00kie', 'x-request-id': 'req-1', 'idempotency-key': 'key-chosen-by-the-caller',
        'user-agent': 'bench-client/1',
      },
    });
    await res.text();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return { lines: lines.map((l) => JSON.parse(l) as Record<string, unknown>), children };
  }

  it('writes the handler\'s lines and one line for the request, all with its id, the request without its query or any header but its user agent', async () => {
    const { lines } = await serve(201);

    expect(lines.map((l) => [l['request_id'], l['msg']])).toEqual([['req-1', 'inside the handler'], ['req-1', 'request completed']]);
    const [, done] = lines;
    expect(Object.keys(done)).toEqual(expect.arrayContaining(['req', 'res', 'responseTime']));
    expect(done['req']).toEqual({ method: 'POST', url: '/v1/results', remoteAddress: '127.0.0.1', userAgent: 'bench-client/1', contentLength: 2 });
    expect(done['res']).toEqual({ statusCode: 201, contentLength: 2 });
    expect(JSON.stringify(lines)).not.toMatch(/t0ken|c00kie|secret-in-query|key-chosen-by-the-caller/);
  });

  it('makes one child logger per request, the one bound to its id: none only to carry the request into the last line', async () => {
    const { children } = await serve(201);
    expect(children).toBe(1);
  });

  it('writes a failed request\'s line with the request, the response and the error', async () => {
    const { lines } = await serve(503);
    const done = lines[lines.length - 1];
    expect(done['msg']).toBe('request errored');
    expect(done['request_id']).toBe('req-1');
    expect(done['req']).toEqual({ method: 'POST', url: '/v1/results', remoteAddress: '127.0.0.1', userAgent: 'bench-client/1', contentLength: 2 });
    expect(done['res']).toMatchObject({ statusCode: 503 });
    expect(JSON.stringify(lines)).not.toMatch(/t0ken|c00kie|key-chosen-by-the-caller/);
    expect(done['err']).toMatchObject({ message: 'failed with status code 503' });
  });

  it('writes "request aborted" once for a caller that goes away before the answer, and hangs no logger or listener but one on the exchange', async () => {
    const lines: string[] = [];
    const logRequest = requestLogger(loggerParams('svc', 'info', { write: (line: string) => lines.push(line) }));
    if (logRequest === undefined) throw new Error('the request logger is on by default');
    let received: (res: ServerResponse) => void = () => undefined;
    const handled = new Promise<ServerResponse>((resolve) => (received = resolve));
    const server = createServer((req, res) => {
      const listeners = { close: res.listenerCount('close'), finish: res.listenerCount('finish'), error: res.listenerCount('error') };
      logRequest(req, res, () => {
        expect([res.listenerCount('close') - listeners.close, res.listenerCount('finish') - listeners.finish, res.listenerCount('error') - listeners.error]).toEqual([1, 0, 0]);
        expect([(req as { log?: unknown }).log, (res as { log?: unknown }).log, (req as { id?: unknown }).id]).toEqual([undefined, undefined, undefined]);
        received(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const call = request({ host: '127.0.0.1', port, path: '/v1/results', method: 'POST', headers: { 'x-request-id': 'req-gone', 'content-length': '2' } });
    call.on('error', () => undefined);
    call.write('{}');
    const res = await handled;
    call.destroy();
    await new Promise<void>((resolve) => res.once('close', () => setImmediate(resolve)));
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const written = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written.map((l) => [l['request_id'], l['msg']])).toEqual([['req-gone', 'request aborted']]);
  });
});
