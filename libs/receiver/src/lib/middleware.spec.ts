// Real Express (installed with @nestjs/platform-express) and real Fastify, so the tests cover the frameworks customers use.
// eslint-disable-next-line @nx/enforce-module-boundaries
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
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

describe('Fastify helpers, on a real Fastify server', () => {
  let url: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepRawJson);
    app.post('/hook', { preHandler: fastifyPreHandler(SECRET, { now: NOW }) }, async (request) => {
      const rawBody = (request as typeof request & { rawBody: Buffer }).rawBody;
      return { body: request.body, raw: rawBody.toString('utf8') };
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const post = (body: string, headers: Record<string, string>) => fetch(`${url}/hook`, { method: 'POST', headers, body });

  it('keeps the bytes, verifies them, and hands the handler the parsed JSON and the raw body', async () => {
    const res = await post(BODY, signedHeaders(BODY));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: { result_id: 'res_1', revision: 3 }, raw: BODY });
  });

  it('answers 401 with the reason for a tampered body, before the handler runs', async () => {
    const res = await post(BODY.replace('3', '4'), signedHeaders(BODY));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'signature_mismatch' });
  });

  it('answers 400 for a signed body that is not JSON', async () => {
    const res = await post('not json', signedHeaders('not json'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_json' });
  });
});
