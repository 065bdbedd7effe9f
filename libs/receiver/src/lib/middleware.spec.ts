// Real Express (installed with @nestjs/platform-express), so the test covers the framework customers use.
// eslint-disable-next-line @nx/enforce-module-boundaries
import express from 'express';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fastifyPreHandler, keepRawJson, verifyMiddleware } from './middleware';
import { sign } from './sign';

const SECRET = 'middleware-secret';
const BODY = '{"result_id":"res_1",  "revision":3}';
const NOW = 1700000000;

function signedHeaders(body: string, secret = SECRET): Record<string, string> {
  const timestamp = String(NOW);
  return { 'content-type': 'application/json', 'x-sh-timestamp': timestamp, 'x-sh-signature': sign(secret, timestamp, body) };
}

async function serve(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('verifyMiddleware', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function expressApp(...before: express.RequestHandler[]): Promise<string> {
    const app = express();
    app.post('/hook', ...before, verifyMiddleware(SECRET, { now: NOW }) as express.RequestHandler, (req, res) => {
      const rawBody = (req as express.Request & { rawBody: Buffer }).rawBody;
      res.json({ body: req.body as unknown, raw: rawBody.toString('utf8') });
    });
    const server = createServer(app);
    servers.push(server);
    return serve(server);
  }

  it.each([
    ['reads the raw body itself', []],
    ['uses the Buffer express.raw left', [express.raw({ type: 'application/json' })]],
  ])('Express: %s, then sets rawBody and the parsed body', async (_name, before) => {
    const url = await expressApp(...before);
    const res = await fetch(`${url}/hook`, { method: 'POST', headers: signedHeaders(BODY), body: BODY });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: { result_id: 'res_1', revision: 3 }, raw: BODY });
  });

  it('Express: answers 401 with the reason for a wrong secret, and the handler does not run', async () => {
    const url = await expressApp();
    const res = await fetch(`${url}/hook`, { method: 'POST', headers: signedHeaders(BODY, 'other'), body: BODY });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'signature_mismatch' });
  });

  it('Express: answers 500 body_already_parsed when express.json() ran first (the raw bytes are gone)', async () => {
    const url = await expressApp(express.json());
    const res = await fetch(`${url}/hook`, { method: 'POST', headers: signedHeaders(BODY), body: BODY });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'body_already_parsed' });
  });

  it('node:http: answers 400 invalid_json for a correctly signed body that is not JSON', async () => {
    const check = verifyMiddleware(SECRET, { now: NOW });
    const server = createServer((req, res) => check(req, res, () => res.end('handler')));
    servers.push(server);
    const url = await serve(server);
    const res = await fetch(url, { method: 'POST', headers: signedHeaders('not json'), body: 'not json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_json' });
  });
});

describe('Fastify helpers', () => {
  function reply() {
    const sent: { status?: number; body?: unknown } = {};
    const r = { code: (status: number) => ((sent.status = status), r), send: (body: unknown) => (sent.body = body) };
    return { r, sent };
  }

  it('keepRawJson hands the bytes on unparsed', () => {
    const done = jest.fn();
    keepRawJson({}, Buffer.from(BODY), done);
    expect(done).toHaveBeenCalledWith(null, Buffer.from(BODY));
  });

  it('fastifyPreHandler verifies the kept bytes and replaces body with the parsed JSON', async () => {
    const request: { headers: Record<string, string>; body?: unknown; rawBody?: Buffer } = { headers: signedHeaders(BODY), body: Buffer.from(BODY) };
    const { r, sent } = reply();
    await fastifyPreHandler(SECRET, { now: NOW })(request, r);
    expect(sent).toEqual({});
    expect(request.body).toEqual({ result_id: 'res_1', revision: 3 });
    expect(request.rawBody).toEqual(Buffer.from(BODY));
  });

  it('fastifyPreHandler answers 401 with the reason for a tampered body', async () => {
    const request = { headers: signedHeaders(BODY), body: Buffer.from(BODY.replace('3', '4')) };
    const { r, sent } = reply();
    await fastifyPreHandler(SECRET, { now: NOW })(request, r);
    expect(sent).toEqual({ status: 401, body: { error: 'signature_mismatch' } });
  });
});
