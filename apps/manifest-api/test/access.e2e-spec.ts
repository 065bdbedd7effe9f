import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { ManualClock, waitFor } from '@owd/testing';
import { createWorkspace, expectProblem, startTestApp, type TestApp } from './support/test-app';

const RATE_LIMIT = 100;

describe('manifest-api access and error handling', () => {
  let t: TestApp;
  // Moves only between tests, so no bucket refills while a test counts requests.
  const clock = new ManualClock();

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) }, { clock });
  });

  beforeEach(() => clock.advance(60_000));

  afterAll(async () => {
    await t?.close();
  });

  it('answers a request without a token with 401 problem+json and a Bearer challenge', async () => {
    const res = await t.request('GET', '/api/goals');
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers an unknown token with 401, whatever its shape', async () => {
    expectProblem(await t.request('GET', '/api/goals', { token: 'owd_notarealtoken' }), 401, 'unauthorized');
    expectProblem(await t.request('GET', '/api/goals', { headers: { authorization: 'Basic YTpi' } }), 401, 'unauthorized');
  });

  it('keeps the admin token to workspace management and workspace tokens away from it (403)', async () => {
    const { token } = await createWorkspace(t);
    expectProblem(await t.request('GET', '/api/goals', { token: t.adminToken }), 403, 'forbidden');
    expectProblem(await t.request('POST', '/api/workspaces', { token, body: { name: 'x' } }), 403, 'forbidden');
  });

  it('issues owd_ tokens shown once, stored only as a SHA-256 hash, listed with name, prefix and last use', async () => {
    const { workspaceId, token, tokenId } = await createWorkspace(t);
    expect(token).toMatch(/^owd_[A-Za-z0-9_-]{43}$/);
    expect((await t.request('GET', '/api/goals', { token })).status).toBe(200);

    const list = await t.request('GET', `/api/workspaces/${workspaceId}/tokens`, { token: t.adminToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [{
      id: tokenId, workspaceId, name: 'ci', prefix: token.slice(0, 12), createdAt: expect.any(String),
      lastUsedAt: expect.any(String), revokedAt: null,
    }], nextCursor: null });
    expect(list.text).not.toContain(token);

    const rows: Record<string, unknown>[] = await t.app.get(DataSource).query(`SELECT * FROM manifest_api.api_tokens WHERE id = $1`, [tokenId]);
    expect(rows[0]['token_hash']).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses a revoked token with 401 at once, also one it has just let in (and so holds in its token cache)', async () => {
    const { workspaceId, token, tokenId } = await createWorkspace(t);
    expect((await t.request('GET', '/api/goals', { token })).status).toBe(200);
    const revoked = await t.request('DELETE', `/api/workspaces/${workspaceId}/tokens/${tokenId}`, { token: t.adminToken });
    expect(revoked.status).toBe(204);
    expectProblem(await t.request('GET', '/api/goals', { token }), 401, 'unauthorized');
  });

  it('never lets a token reach another workspace\'s goal: 404 as if it did not exist', async () => {
    const a = await createWorkspace(t, 'A');
    const b = await createWorkspace(t, 'B');
    const goal = await t.request('POST', '/api/goals', { token: a.token, body: { name: 'A goal', sourceLang: 'en' } });
    expect(goal.status).toBe(201);
    expectProblem(await t.request('GET', `/api/goals/${goal.body.id}`, { token: b.token }), 404, 'not-found');
    expectProblem(await t.request('PATCH', `/api/goals/${goal.body.id}`, { token: b.token, body: { name: 'stolen' } }), 404, 'not-found');
    expectProblem(await t.request('DELETE', `/api/goals/${goal.body.id}`, { token: b.token }), 404, 'not-found');
    expect((await t.request('GET', '/api/goals', { token: b.token })).body).toEqual({ data: [], nextCursor: null });
    expectProblem(await t.request('GET', '/api/goals/not-a-uuid', { token: a.token }), 404, 'not-found');
  });

  describe('DELETE /api/workspaces/{id}', () => {
    it('refuses with 409 workspace-not-empty while the workspace has goals, and changes nothing', async () => {
      const { workspaceId, token } = await createWorkspace(t, 'Busy');
      await t.request('POST', '/api/goals', { token, body: { name: 'Kept', sourceLang: 'en' } });
      const refused = await t.request('DELETE', `/api/workspaces/${workspaceId}`, { token: t.adminToken });
      expectProblem(refused, 409, 'workspace-not-empty');
      expect(refused.body.goals).toBe(1);
      expect((await t.request('GET', '/api/goals', { token })).status).toBe(200);
    });

    it('deletes a workspace whose goals are deleted: hidden from the list, its tokens revoked (401), then 404', async () => {
      const { workspaceId, token } = await createWorkspace(t, 'Test workspace');
      const goal = await t.request('POST', '/api/goals', { token, body: { name: 'Trial', sourceLang: 'en' } });
      expect((await t.request('DELETE', `/api/goals/${goal.body.id}`, { token })).status).toBe(204);

      const deleted = await t.request('DELETE', `/api/workspaces/${workspaceId}`, { token: t.adminToken });
      expect(deleted.status).toBe(204);
      expectProblem(await t.request('GET', '/api/goals', { token }), 401, 'unauthorized');
      const listed: { id: string }[] = [];
      for (let cursor = ''; ;) {
        const page = await t.request('GET', `/api/workspaces?limit=100${cursor && `&cursor=${cursor}`}`, { token: t.adminToken });
        listed.push(...page.body.data);
        if (!page.body.nextCursor) break;
        cursor = page.body.nextCursor;
      }
      expect(listed.map((w) => w.id)).not.toContain(workspaceId);
      expectProblem(await t.request('DELETE', `/api/workspaces/${workspaceId}`, { token: t.adminToken }), 404, 'not-found');
      expectProblem(await t.request('GET', `/api/workspaces/${workspaceId}/tokens`, { token: t.adminToken }), 404, 'not-found');
      expectProblem(await t.request('POST', `/api/workspaces/${workspaceId}/tokens`, { token: t.adminToken, body: { name: 'again' } }), 404, 'not-found');
    });

    it('is for the admin token only (403) and answers an unknown or malformed id with 404', async () => {
      const { workspaceId, token } = await createWorkspace(t, 'Mine');
      expectProblem(await t.request('DELETE', `/api/workspaces/${workspaceId}`, { token }), 403, 'forbidden');
      expectProblem(await t.request('DELETE', '/api/workspaces/00000000-0000-4000-8000-000000000000', { token: t.adminToken }), 404, 'not-found');
      expectProblem(await t.request('DELETE', '/api/workspaces/not-a-uuid', { token: t.adminToken }), 404, 'not-found');
    });
  });

  describe('request bodies', () => {
    let token: string;
    beforeAll(async () => ({ token } = await createWorkspace(t)));

    it('refuses a body over 1 MiB with 413', async () => {
      const res = await t.request('POST', '/api/goals', { token, raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024), sourceLang: 'en' }), headers: { 'content-type': 'application/json' } });
      expectProblem(res, 413, 'payload-too-large');
    });

    it('refuses a body that is not application/json with 415', async () => {
      const res = await t.request('POST', '/api/goals', { token, raw: 'name=x&sourceLang=en', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectProblem(res, 415, 'unsupported-media-type');
      expectProblem(await t.request('POST', '/api/goals', { token, raw: '{}', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported-media-type');
    });

    it('refuses malformed JSON with 400 without echoing the body', async () => {
      const res = await t.request('POST', '/api/goals', { token, raw: '{"name": "leak-me", oops}', headers: { 'content-type': 'application/json' } });
      expectProblem(res, 400, 'malformed-json');
      expect(res.text).not.toContain('leak-me');
    });

    it('refuses unknown fields with 400 naming each of them', async () => {
      const res = await t.request('POST', '/api/goals', { token, body: { name: 'x', sourceLang: 'en', colour: 'red', deliveryMode: 'production' } });
      expectProblem(res, 400, 'validation-error');
      expect(res.body.errors).toEqual(expect.arrayContaining([
        { field: 'colour', message: expect.stringMatching(/should not exist/) },
        { field: 'deliveryMode', message: expect.stringMatching(/should not exist/) },
      ]));
    });

    it('refuses a __proto__ key, top-level or nested, with 400', async () => {
      for (const raw of ['{"name":"x","sourceLang":"en","__proto__":{"admin":true}}', '{"name":"x","sourceLang":"en","fieldDefaults":{"__proto__":{"a":1}}}']) {
        const res = await t.request('POST', '/api/goals', { token, raw, headers: { 'content-type': 'application/json' } });
        expectProblem(res, 400, 'validation-error');
        expect(res.body.errors).toEqual([{ field: '__proto__', message: expect.any(String) }]);
      }
    });

    it('refuses a missing body or a JSON array where an object is expected with 400', async () => {
      expectProblem(await t.request('POST', '/api/goals', { token }), 400, 'validation-error');
      expectProblem(await t.request('POST', '/api/goals', { token, body: [{ name: 'x', sourceLang: 'en' }] }), 400, 'validation-error');
    });

    it('names wrong types and missing fields', async () => {
      const res = await t.request('POST', '/api/goals', { token, body: { name: 3, sourceLang: 'English!' } });
      expectProblem(res, 400, 'validation-error');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['name', 'sourceLang']));
    });
  });

  it('answers an unknown route with a 404 problem', async () => {
    const { token } = await createWorkspace(t);
    expectProblem(await t.request('GET', '/api/nothing-here', { token }), 404, 'not-found');
  });

  it('limits requests per token and answers 429 with Retry-After, leaving other tokens alone', async () => {
    const hot = await createWorkspace(t, 'hot');
    const calm = await createWorkspace(t, 'calm');
    const allowed = await Promise.all(Array.from({ length: RATE_LIMIT }, () => t.request('GET', '/api/goals', { token: hot.token })));
    expect(allowed.filter((r) => r.status !== 200)).toEqual([]);
    const limited = await t.request('GET', '/api/goals', { token: hot.token });
    expectProblem(limited, 429, 'rate-limited');
    // 100 a minute: the next request is allowed 0.6 s later, announced in whole seconds.
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await t.request('GET', '/api/goals', { token: calm.token })).status).toBe(200);
  });

  it('serves /health, the probes and /metrics without the api prefix', async () => {
    // Ready (and started) once the consumer group has joined.
    for (const probe of ['/health', '/health/live', '/health/ready', '/health/startup']) {
      await waitFor(async () => (await fetch(`${t.baseUrl}${probe}`)).status === 200, { what: `${probe} answering 200` });
    }
    expect(await (await fetch(`${t.baseUrl}/metrics`)).text()).toContain('owd_events_consumed_total');
    // Probes and scrapes bypass the request logger (no X-Request-Id); the API's own routes do not.
    for (const path of ['/health', '/health/live', '/metrics']) expect((await fetch(`${t.baseUrl}${path}`)).headers.get('x-request-id')).toBeNull();
    expect((await fetch(`${t.baseUrl}/api/goals`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves its OpenAPI document at /api/docs-json, identical to docs/openapi.json, as YAML at /api/docs-yaml, and Swagger UI at /api/docs', async () => {
    const served = await (await fetch(`${t.baseUrl}/api/docs-json`)).json();
    const documented = JSON.parse(readFileSync(resolve(__dirname, '../../../docs/openapi.json'), 'utf8'));
    expect(served).toEqual(documented);
    // The YAML is written by js-yaml, which the patched @nestjs/swagger loads on this first request for it.
    const yaml = await fetch(`${t.baseUrl}/api/docs-yaml`);
    expect(yaml.headers.get('content-type')).toMatch(/^text\/yaml/);
    const text = await yaml.text();
    expect(text).toMatch(new RegExp(`^openapi: ${documented.openapi.replace(/\./g, '\\.')}$`, 'm'));
    for (const path of Object.keys(documented.paths)) expect(text).toContain(`\n  ${path}:\n`);
    expect((await fetch(`${t.baseUrl}/api/docs`)).status).toBe(200);
  });

  it('has no development sink unless DEV_SINK_ENABLED is on (hosted production)', async () => {
    const { token } = await createWorkspace(t);
    const goal = (await t.request('POST', '/api/goals', { token, body: { name: 'x', sourceLang: 'en' } })).body;
    expectProblem(await t.request('POST', '/internal/dev-sink', { raw: '{}', headers: { 'content-type': 'application/json', 'x-sh-goal': goal.id } }), 404, 'not-found');
    expectProblem(await t.request('GET', `/api/goals/${goal.id}/dev-sink`, { token }), 404, 'not-found');
  });
});
