import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ManualClock, startReceiver, waitFor, type TestReceiver } from '@owd/testing';
import { createWorkspace, startSystem, type HostileSystem, type HttpAnswer, type RequestOptions } from './support/system';
import { Witness } from './support/witness';

const PROBLEM = 'https://owd.dev/problems/';
const RATE_LIMIT = 120;
const GOAL = { name: 'Desk', sourceLang: 'en' };
const RESULT = { mode: 'article', executedAt: '2026-11-21T10:00:00+00:00', title: 'T', lead: 'Lead.', body: 'Body.', locales: {}, steps: {}, articles: [], clusters: [], sections: [], image: null, aiModel: 'm', tokensUsed: 1, cost: 0.001 };
const JSON_TYPE = { 'content-type': 'application/json' };
/** Submitted content that must never reach a response or a log line. */
const MARKER = 'hostile-marker-5c1e';

/** A goal body whose name carries `bytes` in the middle: not UTF-8, so it must be refused, never decoded with U+FFFD. */
function withBytes(...bytes: number[]): Buffer {
  return Buffer.concat([Buffer.from(`{"name":"${MARKER}`), Buffer.from(bytes), Buffer.from('","sourceLang":"en"}')]);
}

/** `depth` nested arrays inside fieldDefaults, around a valid goal. */
function nested(depth: number): string {
  return `{"name":"x","sourceLang":"en","fieldDefaults":{"desk":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

/** A body that streams out chunked (no Content-Length), so only the server's count of bytes can stop it. */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === 0) controller.enqueue(Buffer.from('{"name":"'));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      sent += chunk.length;
      controller.enqueue(chunk);
      if (sent >= bytes) {
        controller.enqueue(Buffer.from('","sourceLang":"en"}'));
        controller.close();
      }
    },
  });
}

type BodyAttack = [attack: string, status: number, slug: string, options: RequestOptions];

/** Attacks on the body of POST /api/goals: had any got through, it would have stored a goal and its event. */
const BODY_ATTACKS: BodyAttack[] = [
  ['malformed JSON (a bare word)', 400, 'malformed-json', { raw: '{"name": "leak-me", oops}', headers: JSON_TYPE }],
  ['a trailing comma', 400, 'malformed-json', { raw: '{"name":"x","sourceLang":"en",}', headers: JSON_TYPE }],
  ['truncated JSON', 400, 'malformed-json', { raw: '{"name":"x","sourceLang":', headers: JSON_TYPE }],
  ['two JSON documents in one body', 400, 'malformed-json', { raw: '{"name":"x","sourceLang":"en"}{"name":"y"}', headers: JSON_TYPE }],
  ['a JSON string instead of an object', 400, 'validation-error', { raw: '"goal"', headers: JSON_TYPE }],
  ['JSON null instead of an object', 400, 'validation-error', { raw: 'null', headers: JSON_TYPE }],
  ['a JSON array instead of an object', 400, 'validation-error', { body: [GOAL] }],
  ['an empty body', 400, 'validation-error', { raw: Buffer.alloc(0), headers: JSON_TYPE }],
  ['a body over 1 MiB', 413, 'payload-too-large', { body: { ...GOAL, name: 'x'.repeat(1024 * 1024) } }],
  // A getter: a stream is read once, and each request needs its own.
  ['a body over 1 MiB sent chunked, without Content-Length', 413, 'payload-too-large', { get raw() { return chunked(2 * 1024 * 1024); }, headers: JSON_TYPE }],
  ['a gzip bomb inflating past 1 MiB', 413, 'payload-too-large', {
    raw: gzipSync(Buffer.from(JSON.stringify({ ...GOAL, name: 'x'.repeat(8 * 1024 * 1024) }))),
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
  }],
  ['an unknown content encoding', 415, 'unsupported-media-type', { raw: '{}', headers: { ...JSON_TYPE, 'content-encoding': 'x-evil' } }],
  ['nesting 100,000 levels deep', 400, 'nesting-too-deep', { raw: nested(100_000), headers: JSON_TYPE }],
  ['nesting 2,500 levels deep (past the JSON parser, into the validator)', 400, 'nesting-too-deep', { raw: nested(2_500), headers: JSON_TYPE }],
  ['nesting one level past the limit', 400, 'nesting-too-deep', { raw: nested(31), headers: JSON_TYPE }],
  ['an unknown key', 400, 'validation-error', { body: { ...GOAL, colour: 'red' } }],
  ['server-owned keys', 400, 'validation-error', { body: { ...GOAL, id: '00000000-0000-4000-8000-000000000000', workspaceId: 'other', deliveryMode: 'production', verifiedUrl: 'x' } }],
  ['an unknown key in a nested object', 400, 'validation-error', { body: { ...GOAL, fieldDefaults: { desk: { colour: 'red' } } } }],
  ['a __proto__ key', 400, 'validation-error', { raw: '{"name":"x","sourceLang":"en","__proto__":{"polluted":true}}', headers: JSON_TYPE }],
  ['a nested __proto__ key', 400, 'validation-error', { raw: '{"name":"x","sourceLang":"en","fieldDefaults":{"__proto__":{"polluted":true}}}', headers: JSON_TYPE }],
  ['a __proto__ key spelled with a unicode escape', 400, 'validation-error', { raw: '{"name":"x","sourceLang":"en","\\u005f_proto__":{"polluted":true}}', headers: JSON_TYPE }],
  ['a constructor.prototype path', 400, 'validation-error', { raw: '{"name":"x","sourceLang":"en","constructor":{"prototype":{"polluted":true}}}', headers: JSON_TYPE }],
  ['no Content-Type', 415, 'unsupported-media-type', { raw: Buffer.from(JSON.stringify(GOAL)) }],
  ['text/plain', 415, 'unsupported-media-type', { raw: JSON.stringify(GOAL), headers: { 'content-type': 'text/plain' } }],
  ['a form', 415, 'unsupported-media-type', { raw: 'name=x&sourceLang=en', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ['multipart/form-data', 415, 'unsupported-media-type', { raw: '--b\r\n\r\nx\r\n--b--', headers: { 'content-type': 'multipart/form-data; boundary=b' } }],
  ['XML', 415, 'unsupported-media-type', { raw: '<goal><name>x</name></goal>', headers: { 'content-type': 'application/xml' } }],
  ['a JSON look-alike media type', 415, 'unsupported-media-type', { raw: JSON.stringify(GOAL), headers: { 'content-type': 'application/json-patch+json' } }],
  ['JSON in UTF-16', 415, 'unsupported-media-type', { raw: Buffer.from(JSON.stringify(GOAL), 'utf16le'), headers: { 'content-type': 'application/json; charset=utf-16le' } }],
  ['JSON in Latin-1', 415, 'unsupported-media-type', { raw: Buffer.from(JSON.stringify(GOAL), 'latin1'), headers: { 'content-type': 'application/json; charset=iso-8859-1' } }],
  ['invalid UTF-8 (C3 28 FF FE)', 415, 'unsupported-media-type', { raw: withBytes(0xc3, 0x28, 0xff, 0xfe), headers: JSON_TYPE }],
  ['an overlong UTF-8 encoding of "/" (C0 AF)', 415, 'unsupported-media-type', { raw: withBytes(0xc0, 0xaf), headers: JSON_TYPE }],
  ['a UTF-16 surrogate encoded as UTF-8 (ED A0 80)', 415, 'unsupported-media-type', { raw: withBytes(0xed, 0xa0, 0x80), headers: { 'content-type': 'application/json; charset=utf-8' } }],
];

function expectProblem(res: HttpAnswer, status: number, slug: string): void {
  expect({ status: res.status, type: res.body?.type }).toEqual({ status, type: `${PROBLEM}${slug}` });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ title: expect.any(String), status, detail: expect.any(String) });
  expect(res.text).not.toMatch(/stack|at \w+ \(|leak-me|polluted/);
  expect(res.text).not.toContain(MARKER);
}

/** No log line, at any level, carries the submitted content. */
function expectNotLogged(system: HostileSystem, ...values: string[]): void {
  for (const value of values) expect(system.logs.filter((line) => line.includes(value))).toEqual([]);
}

describe('hostile input: request bodies, tokens, other workspaces and bursts', () => {
  let system: HostileSystem;
  let decoy: TestReceiver;
  let witness: Witness;
  // Moves only between tests: within a test no bucket refills, so counts past the limit are exact.
  const clock = new ManualClock();

  beforeAll(async () => {
    decoy = await startReceiver();
    // Loopback is allowed here so that the other workspace's goal can point at the decoy: a leak would arrive there.
    system = await startSystem({ clock, env: { ALLOWED_TARGET_CIDRS: '127.0.0.0/8', RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } });
    witness = new Witness(system.db, 'manifest_api', [decoy]);
  });

  beforeEach(() => clock.advance(60_000));

  afterAll(async () => {
    await system?.close();
    await decoy?.close();
  });

  describe('request bodies (POST /api/goals)', () => {
    let token: string;
    beforeAll(async () => ({ token } = await createWorkspace(system, 'Bodies')));

    it('stores a well-formed goal, which the witness sees (the refusals below are about the body only)', async () => {
      const before = await witness.snapshot();
      expect((await system.request('POST', '/api/goals', { token, body: { ...GOAL, fieldDefaults: { desk: [] } } })).status).toBe(201);
      expect((await witness.snapshot()).tables['goals']).not.toBe(before.tables['goals']);
    });

    it.each(BODY_ATTACKS)('refuses %s with %i %s, storing nothing', async (_attack, status, slug, options) => {
      const res = await witness.expectNoTrace(() => system.request('POST', '/api/goals', { token, ...options }));
      expectProblem(res, status, slug);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('names the forbidden key of a prototype-polluting body, and the unknown keys of a body', async () => {
      const proto = await system.request('POST', '/api/goals', { token, raw: '{"name":"x","sourceLang":"en","\\u005f_proto__":{}}', headers: JSON_TYPE });
      expect(proto.body.errors).toEqual([{ field: '__proto__', message: 'this key is not allowed' }]);
      const unknown = await system.request('POST', '/api/goals', { token, body: { ...GOAL, colour: 'red', fieldDefaults: { desk: { tone: 1 } } } });
      expect(unknown.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['colour', 'fieldDefaults']));
    });

    it.each([
      ['a result with a __proto__ key inside a block', 'results', '{"mode":"article","sections":[{"key":"main","type":"content","blocks":[{"type":"paragraph","text":"x","__proto__":{"polluted":true}}]}]}'],
      ['a result with an unknown key inside a block', 'results', '{"mode":"article","sections":[{"key":"main","type":"content","blocks":[{"type":"paragraph","text":"x","onclick":"x"}]}]}'],
      ['a capability report with a constructor key inside a field', 'target-manifest', '{"source":"receiver","fields":[{"key":"desk","label":"Desk","type":"text","constructor":{"prototype":{"polluted":true}}}]}'],
      ['a capability report nested too deeply', 'target-manifest', `{"source":"receiver","sections":${'['.repeat(40)}${']'.repeat(40)}}`],
    ])('refuses %s on the goal\'s %s route with 400, storing nothing', async (_attack, route, raw) => {
      const goal = await system.request('POST', '/api/goals', { token, body: GOAL });
      const method = route === 'results' ? 'POST' : 'PUT';
      const res = await witness.expectNoTrace(() => system.request(method, `/api/goals/${goal.body.id}/${route}`, { token, raw, headers: JSON_TYPE }));
      expect(res.status).toBe(400);
      expect(res.body.type).toMatch(/\/(validation-error|nesting-too-deep)$/);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });
  });

  describe('text PostgreSQL cannot hold: U+0000 anywhere in a JSON body', () => {
    const nul = `${MARKER}\u0000`;
    const report = (label: string) => ({ source: 'receiver', fields: [{ key: 'desk', label, type: 'text' }], sections: ['content'], blocks: ['paragraph'] });
    let token: string;
    let goalId: string;
    let resultId: string;

    beforeAll(async () => {
      ({ token } = await createWorkspace(system, 'Nul'));
      goalId = (await system.request('POST', '/api/goals', { token, body: GOAL })).body.id;
      resultId = (await system.request('POST', `/api/goals/${goalId}/results`, { token, body: RESULT })).body.id;
      expect(resultId).toEqual(expect.any(String));
    });

    it.each<[string, string, (ids: { goal: string; result: string }) => string, unknown, string]>([
      ['a goal name', 'POST', () => '/api/goals', { ...GOAL, name: nul }, 'name'],
      ['a field default', 'POST', () => '/api/goals', { ...GOAL, fieldDefaults: { desk: nul } }, 'fieldDefaults.desk'],
      ['one of several field default values', 'POST', () => '/api/goals', { ...GOAL, fieldDefaults: { desk: ['eco', nul] } }, 'fieldDefaults.desk[1]'],
      ['a renamed goal', 'PATCH', ({ goal }) => `/api/goals/${goal}`, { name: nul }, 'name'],
      ['a capability-report label', 'PUT', ({ goal }) => `/api/goals/${goal}/target-manifest`, report(nul), 'fields[0].label'],
      ['a result title', 'POST', ({ goal }) => `/api/goals/${goal}/results`, { ...RESULT, title: nul }, 'title'],
      ['a result body', 'POST', ({ goal }) => `/api/goals/${goal}/results`, { ...RESULT, body: nul }, 'body'],
      ['the text of a block', 'POST', ({ goal }) => `/api/goals/${goal}/results`,
        { ...RESULT, sections: [{ key: 'main', type: 'content', blocks: [{ type: 'paragraph', text: nul }] }] }, 'sections[0].blocks[0].text'],
      ['a revised result body', 'PUT', ({ result }) => `/api/results/${result}/content`, { ...RESULT, body: nul }, 'body'],
    ])('refuses %s with 400 naming the field, storing and logging nothing', async (_what, method, path, body, field) => {
      const res = await witness.expectNoTrace(() => system.request(method, path({ goal: goalId, result: resultId }), { token, body }));
      expectProblem(res, 400, 'validation-error');
      expect(res.body.errors).toEqual([{ field, message: expect.stringContaining('U+0000') }]);
      expectNotLogged(system, MARKER);
    });
  });

  describe('tokens', () => {
    let workspace: { workspaceId: string; token: string; tokenId: string };
    let revoked: string;

    beforeAll(async () => {
      workspace = await createWorkspace(system, 'Tokens');
      const other = await createWorkspace(system, 'Revoked');
      expect((await system.request('DELETE', `/api/workspaces/${other.workspaceId}/tokens/${other.tokenId}`, { token: system.adminToken })).status).toBe(204);
      revoked = other.token;
    });

    it.each<[string, number, string, () => { path?: string; headers: Record<string, string> }]>([
      ['no Authorization header', 401, 'unauthorized', () => ({ headers: {} })],
      ['an empty bearer token', 401, 'unauthorized', () => ({ headers: { authorization: 'Bearer ' } })],
      ['a garbage owd_ token', 401, 'unauthorized', () => ({ headers: { authorization: `Bearer owd_${randomBytes(32).toString('base64url')}` } })],
      ['an SQL-looking token', 401, 'unauthorized', () => ({ headers: { authorization: "Bearer ' OR '1'='1' --" } })],
      ['a 4 KiB token', 401, 'unauthorized', () => ({ headers: { authorization: `Bearer owd_${'A'.repeat(4096)}` } })],
      ['another auth scheme', 401, 'unauthorized', () => ({ headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })],
      ['a valid token in the query string instead of the header', 401, 'unauthorized', () => ({ path: `/api/goals?access_token=${workspace.token}`, headers: {} })],
      ['a revoked token', 401, 'unauthorized', () => ({ headers: { authorization: `Bearer ${revoked}` } })],
      ['the admin token on a workspace route', 403, 'forbidden', () => ({ headers: { authorization: `Bearer ${system.adminToken}` } })],
    ])('refuses %s with %i %s, storing nothing', async (_attack, status, slug, credentials) => {
      const { path = '/api/goals', headers } = credentials();
      const res = await witness.expectNoTrace(() => system.request('POST', path, { body: GOAL, headers }));
      expectProblem(res, status, slug);
      if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });

    it.each(BODY_ATTACKS)('answers %s without a token with 401: the token is checked before the body is read', async (_attack, _status, _slug, options) => {
      const res = await witness.expectNoTrace(() => system.request('POST', '/api/goals', options));
      expectProblem(res, 401, 'unauthorized');
    });

    it('answers a malformed body with a revoked token with 401, not 400, also on a path spelled in capitals (routing ignores case)', async () => {
      const malformed = { raw: '{"name": "leak-me", oops}', headers: JSON_TYPE };
      expectProblem(await system.request('POST', '/api/goals', { token: revoked, ...malformed }), 401, 'unauthorized');
      expectProblem(await system.request('POST', '/API/Goals', malformed), 401, 'unauthorized');
    });

    it('logs the path of a request, never its query string (a token sent there stays out of the log)', async () => {
      const tag = randomBytes(8).toString('hex');
      const res = await system.request('GET', `/api/goals?access_token=${workspace.token}&note=${MARKER}`, { headers: { 'x-request-id': tag } });
      expectProblem(res, 401, 'unauthorized');
      // pino-http writes the access line once the response has finished; the request's id finds it.
      const line = await waitFor(() => system.logs.find((l) => l.includes(tag) && l.includes('request completed')), { what: 'the access log line' });
      expect(JSON.parse(line)).toMatchObject({ request_id: tag, req: { method: 'GET', url: '/api/goals' } });
      expectNotLogged(system, workspace.token, MARKER);
    });

    it('refuses a workspace token on an admin route with 403, creating no workspace or token', async () => {
      expectProblem(await witness.expectNoTrace(() => system.request('POST', '/api/workspaces', { token: workspace.token, body: { name: 'Mine now' } })), 403, 'forbidden');
      expectProblem(await witness.expectNoTrace(() =>
        system.request('POST', `/api/workspaces/${workspace.workspaceId}/tokens`, { token: workspace.token, body: { name: 'extra' } })), 403, 'forbidden');
    });
  });

  describe("another workspace's goals and results (token of A, resources of B)", () => {
    let a: string;
    let b: string;
    let goalId: string;
    let resultId: string;
    const resultBody = { ...RESULT, title: 'B only' };

    beforeAll(async () => {
      ({ token: a } = await createWorkspace(system, 'A'));
      ({ token: b } = await createWorkspace(system, 'B'));
      const goal = await system.request('POST', '/api/goals', { token: b, body: { ...GOAL, recipientUrl: `${decoy.url}/b-hook` } });
      goalId = goal.body.id;
      expect((await system.request('PUT', `/api/goals/${goalId}/secret`, { token: b, body: { secret: 'whsec_b_only_0123456789' } })).status).toBe(200);
      const result = await system.request('POST', `/api/goals/${goalId}/results`, { token: b, body: resultBody });
      expect(result.status).toBe(201);
      resultId = result.body.id;
    });

    it("reaches the decoy with B's own Send test (so a leak through A's would show there)", async () => {
      const before = decoy.requests.length;
      const res = await system.request('POST', `/api/goals/${goalId}/send-test`, { token: b, body: {} });
      expect(res.body).toMatchObject({ outcome: 'delivered', sent: true });
      expect(decoy.requests.length).toBe(before + 1);
    });

    it.each<[string, string, (ids: { goal: string; result: string }) => string, unknown]>([
      ["read B's goal", 'GET', ({ goal }) => `/api/goals/${goal}`, undefined],
      ["rename B's goal", 'PATCH', ({ goal }) => `/api/goals/${goal}`, { name: 'Stolen' }],
      ["point B's goal at A's receiver", 'PATCH', ({ goal }) => `/api/goals/${goal}`, { recipientUrl: 'http://127.0.0.1:9/attacker' }],
      ["delete B's goal", 'DELETE', ({ goal }) => `/api/goals/${goal}`, undefined],
      ["replace B's secret", 'PUT', ({ goal }) => `/api/goals/${goal}/secret`, { secret: 'whsec_attacker_0123456789' }],
      ["remove B's secret", 'DELETE', ({ goal }) => `/api/goals/${goal}/secret`, undefined],
      ["run Send test to B's saved URL", 'POST', ({ goal }) => `/api/goals/${goal}/send-test`, {}],
      ["run Send test with B's secret to a typed URL", 'POST', ({ goal }) => `/api/goals/${goal}/send-test`, { url: 'http://127.0.0.1:9/attacker' }],
      ["hand a result to B's goal", 'POST', ({ goal }) => `/api/goals/${goal}/results`, resultBody],
      ["list B's results", 'GET', ({ goal }) => `/api/goals/${goal}/results`, undefined],
      ["report receiver capabilities for B's goal", 'PUT', ({ goal }) => `/api/goals/${goal}/target-manifest`, { source: 'receiver', fields: [], sections: ['content'], blocks: ['paragraph'] }],
      ["read B's contract", 'GET', ({ goal }) => `/api/goals/${goal}/contract`, undefined],
      ["set B's contract", 'PUT', ({ goal }) => `/api/goals/${goal}/contract`, { fields: [], sectionTypes: ['content'], blockTypes: ['paragraph'] }],
      ["read B's result", 'GET', ({ result }) => `/api/results/${result}`, undefined],
      ["read the revisions of B's result", 'GET', ({ result }) => `/api/results/${result}/revisions`, undefined],
      ["change the content of B's result", 'PUT', ({ result }) => `/api/results/${result}/content`, { ...resultBody, title: 'Stolen' }],
      ["approve B's result", 'POST', ({ result }) => `/api/results/${result}/approve`, undefined],
      ["set field values of B's result", 'PUT', ({ result }) => `/api/results/${result}/fields`, { values: {} }],
      ["retry the delivery of B's result", 'POST', ({ result }) => `/api/results/${result}/retry`, undefined],
    ])("answers A's attempt to %s with 404 not-found, changing and sending nothing", async (_what, method, path, body) => {
      const res = await witness.expectNoTrace(() => system.request(method, path({ goal: goalId, result: resultId }), { token: a, body }));
      expectProblem(res, 404, 'not-found');
    });

    it("leaves B's goal and result readable and unchanged for B", async () => {
      const goal = await system.request('GET', `/api/goals/${goalId}`, { token: b });
      expect(goal.body).toMatchObject({ name: GOAL.name, recipientUrl: `${decoy.url}/b-hook`, version: 2, secret: { set: true } });
      const result = await system.request('GET', `/api/results/${resultId}`, { token: b });
      expect(result.body).toMatchObject({ title: 'B only' });
    });
  });

  describe('bursts past the rate limit', () => {
    it('answers a burst of writes past the limit with 429 and Retry-After, and stores exactly the goals it accepted', async () => {
      const { workspaceId, token } = await createWorkspace(system, 'Burst');
      const answers = await Promise.all(Array.from({ length: RATE_LIMIT + 40 }, (_, i) =>
        system.request('POST', '/api/goals', { token, body: { ...GOAL, name: `Burst ${i}` } })));
      const created = answers.filter((r) => r.status === 201);
      const limited = answers.filter((r) => r.status === 429);
      // The clock stands still, so the bucket holds exactly RATE_LIMIT requests and refills none.
      expect({ created: created.length, limited: limited.length }).toEqual({ created: RATE_LIMIT, limited: 40 });
      for (const res of limited) {
        expectProblem(res, 429, 'rate-limited');
        expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      }
      const { rows } = await system.db.query<{ id: string }>(`SELECT id FROM manifest_api.goals WHERE workspace_id = $1`, [workspaceId]);
      expect(rows.map((r) => r.id).sort()).toEqual(created.map((r) => r.body.id).sort());
      const { rows: events } = await system.db.query<{ key: string }>(`SELECT message_key AS key FROM manifest_api.outbox WHERE message_key = ANY($1)`, [rows.map((r) => r.id)]);
      expect(events).toHaveLength(created.length);

      const more = await witness.expectNoTrace(() => system.request('POST', '/api/goals', { token, body: GOAL }));
      expectProblem(more, 429, 'rate-limited');
    });

    it('refills the bucket as time passes: one request per 60/limit seconds', async () => {
      const { token } = await createWorkspace(system, 'Refill');
      const burst = await Promise.all(Array.from({ length: RATE_LIMIT }, () => system.request('GET', '/api/goals', { token })));
      expect(burst.every((r) => r.status === 200)).toBe(true);
      const empty = await system.request('GET', '/api/goals', { token });
      expectProblem(empty, 429, 'rate-limited');
      expect(empty.headers.get('retry-after')).toBe('1');
      clock.advance(60_000 / RATE_LIMIT);
      expect((await system.request('GET', '/api/goals', { token })).status).toBe(200);
      expectProblem(await system.request('GET', '/api/goals', { token }), 429, 'rate-limited');
    });

    it('limits per token: another token of the same workspace and other workspaces carry on', async () => {
      const { workspaceId, token } = await createWorkspace(system, 'Hot');
      const spare = await system.request('POST', `/api/workspaces/${workspaceId}/tokens`, { token: system.adminToken, body: { name: 'spare' } });
      const burst = await Promise.all(Array.from({ length: RATE_LIMIT }, () => system.request('GET', '/api/goals', { token })));
      expect(burst.every((r) => r.status === 200)).toBe(true);
      expectProblem(await system.request('GET', '/api/goals', { token }), 429, 'rate-limited');
      expect((await system.request('GET', '/api/goals', { token: spare.body.token })).status).toBe(200);
      const { token: calm } = await createWorkspace(system, 'Calm');
      expect((await system.request('GET', '/api/goals', { token: calm })).status).toBe(200);
    });
  });
});
