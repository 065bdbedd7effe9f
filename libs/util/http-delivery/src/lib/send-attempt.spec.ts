import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Agent } from 'undici';
import { createGuardedAgent, EMPTY_POLICY, parseAllowCidrs } from '@owd/address-guard';
import { sendAttempt } from './send-attempt';

interface Received {
  path: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Route = (res: ServerResponse) => void;

const routes: Record<string, Route> = {
  '/ok': (res) => res.writeHead(204).end(),
  '/status/429': (res) => res.writeHead(429, { 'retry-after': '60' }).end('slow down'),
  '/status/500': (res) => res.writeHead(500).end('boom'),
  '/status/503': (res) => res.writeHead(503).end(),
  '/status/404': (res) => res.writeHead(404).end('no such hook'),
  '/status/401': (res) => res.writeHead(401).end(),
  '/conflict': (res) => res.writeHead(409, { 'content-type': 'application/json' }).end('{"revision":7}'),
  '/conflict-without-revision': (res) => res.writeHead(409, { 'content-type': 'application/json' }).end('{"error":"duplicate"}'),
  '/redirect-metadata': (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/redirect-local': (res) => res.writeHead(307, { location: '/redirect-target' }).end(),
  '/redirect-target': (res) => res.writeHead(200).end('followed'),
  '/big': (res) => res.writeHead(200).end(Buffer.alloc(200 * 1024, 'a')),
  '/gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"hello":"world"}')),
  '/trickle': (res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write('.'), 50);
    res.on('close', () => clearInterval(timer));
  },
  '/never': () => undefined,
};

describe('sendAttempt against real loopback receivers', () => {
  let server: Server;
  let base: string;
  let agent: Agent;
  const received: Received[] = [];
  const hits = (path: string) => received.filter((r) => r.path === path).length;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        (routes[path] ?? ((r: ServerResponse) => r.writeHead(200).end()))(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    agent = createGuardedAgent({ allowCidrs: parseAllowCidrs('127.0.0.0/8') });
  });

  afterAll(async () => {
    await agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (path: string, extra: Partial<Parameters<typeof sendAttempt>[0]> = {}) =>
    sendAttempt({ url: `${base}${path}`, body: '{"a":1}', headers: { 'content-type': 'application/json' }, dispatcher: agent, timeoutMs: 5_000, maxResponseBytes: 64 * 1024, ...extra });

  it('POSTs the exact body bytes and headers and reports a 2xx as delivered', async () => {
    const body = Buffer.from('{"z":"é","a":[1,2]}\n');
    const result = await send('/ok', { body, headers: { 'Content-Type': 'application/json', 'X-SH-Delivery': 'd-1' } });
    expect(result).toMatchObject({ status: 204, outcome: 'delivered', errorClass: null, errorMessage: null, targetHost: base.slice(7) });
    const request = received.at(-1) as Received;
    expect(request.method).toBe('POST');
    expect(request.body.equals(body)).toBe(true);
    expect(request.headers['x-sh-delivery']).toBe('d-1');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['/status/429', 429, 'rate_limited'],
    ['/status/500', 500, 'server_error'],
    ['/status/503', 503, 'server_error'],
  ])('reports %s as retriable', async (path, status, errorClass) => {
    expect(await send(path)).toMatchObject({ status, outcome: 'retriable', errorClass });
  });

  it.each([
    ['/status/404', 404],
    ['/status/401', 401],
  ])('reports %s as a permanent failure and keeps the answer', async (path, status) => {
    const result = await send(path);
    expect(result).toMatchObject({ status, outcome: 'permanent', errorClass: 'client_error' });
    if (status === 404) expect(result.body).toBe('no such hook');
  });

  it('reports a 409 with an integer revision as a conflict', async () => {
    expect(await send('/conflict')).toMatchObject({ status: 409, outcome: 'conflict', conflictRevision: 7, body: '{"revision":7}' });
  });

  it('reports a 409 without an integer revision as a permanent failure', async () => {
    expect(await send('/conflict-without-revision')).toMatchObject({ status: 409, outcome: 'permanent', conflictRevision: null });
  });

  it('does not follow a redirect to the metadata address and names its host', async () => {
    const result = await send('/redirect-metadata');
    expect(result).toMatchObject({ status: 302, outcome: 'permanent', errorClass: 'redirect' });
    expect(result.errorMessage).toBe('redirects are not followed (302 to 169.254.169.254)');
  });

  it('does not follow a redirect even to an allowed address', async () => {
    const result = await send('/redirect-local');
    expect(result).toMatchObject({ status: 307, outcome: 'permanent', errorMessage: `redirects are not followed (307 to ${base.slice(7)})` });
    expect(hits('/redirect-target')).toBe(0);
  });

  it('cuts a receiver that trickles its body at the timeout', async () => {
    const result = await send('/trickle', { timeoutMs: 500 });
    expect(result).toMatchObject({ status: 200, outcome: 'retriable', errorClass: 'timeout', errorMessage: 'no complete answer within 500 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(450);
    expect(result.durationMs).toBeLessThan(3_000);
  });

  it('cuts a receiver that never answers at the timeout', async () => {
    const result = await send('/never', { timeoutMs: 300 });
    expect(result).toMatchObject({ status: null, outcome: 'retriable', errorClass: 'timeout' });
  });

  it('keeps at most maxResponseBytes of the answer', async () => {
    const result = await send('/big', { maxResponseBytes: 1024 });
    expect(result).toMatchObject({ status: 200, outcome: 'delivered', bodyTruncated: true });
    expect(result.body).toBe('a'.repeat(1024));
  });

  it('never decompresses the answer', async () => {
    const result = await send('/gzip');
    expect(result.headers['content-encoding']).toBe('gzip');
    expect(result.body).not.toContain('hello');
  });

  it('records an aborted attempt as retriable', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await send('/never', { signal: controller.signal })).toMatchObject({ outcome: 'retriable', errorClass: 'aborted' });
  });

  it('reports a refused connection as a retriable connection failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sendAttempt({ url: `http://127.0.0.1:${port}/`, body: '{}', headers: {}, dispatcher: agent, timeoutMs: 2_000, maxResponseBytes: 1024 });
    expect(result).toMatchObject({ status: null, outcome: 'retriable', errorClass: 'connection_failed' });
    expect(result.errorMessage).toContain('ECONNREFUSED');
  });

  it('reports an invalid URL as a permanent failure without sending', async () => {
    expect(await sendAttempt({ url: 'not a url', body: '{}', headers: {}, dispatcher: agent })).toMatchObject({
      outcome: 'permanent', errorClass: 'invalid_request', targetHost: '',
    });
  });
});

describe('sendAttempt through the guarded agent with the default (empty) policy', () => {
  let server: Server;
  let port: number;
  let calls = 0;
  let agent: Agent;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      calls += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    agent = createGuardedAgent(EMPTY_POLICY);
  });

  afterAll(async () => {
    await agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses a loopback target at connect time, names the rule and never reaches the receiver', async () => {
    const result = await sendAttempt({ url: `http://127.0.0.1:${port}/hook`, body: '{}', headers: {}, dispatcher: agent, timeoutMs: 2_000, maxResponseBytes: 1024 });
    expect(result).toMatchObject({ status: null, outcome: 'refused', errorClass: 'address_refused', refusedRule: 'loopback', targetHost: `127.0.0.1:${port}` });
    expect(result.errorMessage).toBe('address refused by rule loopback: 127.0.0.1 is a loopback address');
    expect(calls).toBe(0);
  });

  it('refuses a cloud metadata literal before dialling', async () => {
    const result = await sendAttempt({ url: 'http://169.254.169.254/latest/meta-data/', body: '{}', headers: {}, dispatcher: agent, timeoutMs: 2_000 });
    expect(result).toMatchObject({ outcome: 'refused', refusedRule: 'cloud-metadata', targetHost: '169.254.169.254' });
    expect(result.errorMessage).toMatch(/^address refused by rule cloud-metadata: /);
  });
});
