import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ServiceHttpAdapter } from '@owd/platform';
import { createTestDatabase, createTestTopics, type TestDatabase } from '@owd/testing';
import { ApiRequest } from '../../src/app/access/principal';
import { CLOCK, type Clock } from '../../src/app/util/clock';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined for an empty or non-JSON body. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary JSON
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body); a stream goes out chunked, without Content-Length. */
  raw?: string | Buffer | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

/** One request to a running API, its answer read whole (JSON parsed when it is JSON). */
export async function sendRequest(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  let body = options.raw;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export interface TestApp {
  app: INestApplication;
  baseUrl: string;
  adminToken: string;
  db: TestDatabase;
  prefix: string;
  brokers: string[];
  /** Every response body this app sent in the test file (for "the secret is never echoed"). */
  responseBodies: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** Boots manifest-api on a fresh database and topic prefix, with the same HTTP setup as main.ts; `clock` replaces the wall clock. */
export async function startTestApp(env: Record<string, string> = {}, { clock }: { clock?: Clock } = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const { prefix, brokers } = await createTestTopics();
  const adminToken = `adm_${randomBytes(24).toString('hex')}`;
  Object.assign(process.env, {
    DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, MIGRATE_ON_START: 'true', PORT: '3000', // validated, but the test listens on port 0
    ADMIN_TOKEN: adminToken, SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'warn', ...env,
  });
  // ConfigModule validates process.env when the module is first imported, so it is imported only now.
  const { AppModule } = await import('../../src/app/app.module');
  const { configure } = await import('../../src/app/configure');
  const builder = Test.createTestingModule({ imports: [AppModule] });
  if (clock) builder.overrideProvider(CLOCK).useValue(clock);
  const moduleRef = await builder.compile();
  // On the server main.ts gives it (bootstrapService): requests and responses made in their final shape.
  const app = moduleRef.createNestApplication(new ServiceHttpAdapter(ApiRequest), { logger: ['error', 'warn'] });
  // The document as the build ships it beside main.js.
  configure(app, { openApiFile: resolve(__dirname, '../../../../docs/openapi.json') });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const responseBodies: string[] = [];

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    const answer = await sendRequest(baseUrl, method, path, options);
    responseBodies.push(answer.text);
    return answer;
  }

  return {
    app, baseUrl, adminToken, db, prefix, brokers, responseBodies, request,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/** A workspace with one API token, made through the admin API. */
export async function createWorkspace(t: Pick<TestApp, 'request' | 'adminToken'>, name = 'Newsroom'): Promise<{ workspaceId: string; token: string; tokenId: string }> {
  const ws = await t.request('POST', '/api/workspaces', { token: t.adminToken, body: { name } });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${ws.text}`);
  const tok = await t.request('POST', `/api/workspaces/${ws.body.id}/tokens`, { token: t.adminToken, body: { name: 'ci' } });
  if (tok.status !== 201) throw new Error(`token: ${tok.status} ${tok.text}`);
  return { workspaceId: ws.body.id, token: tok.body.token, tokenId: tok.body.id };
}

/** The answer is an RFC 9457 problem of this status and type, without a stack trace. */
export function expectProblem(res: HttpAnswer, status: number, slug: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: `https://owd.dev/problems/${slug}`, title: expect.any(String), status, detail: expect.any(String) });
  expect(res.text).not.toMatch(/stack|at \w+ \(/);
}
