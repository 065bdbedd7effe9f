import { register } from 'prom-client';
import { DataSource } from 'typeorm';
import { TOPICS, type GoalChangedPayload, GoalChanged } from '@owd/events';
import { GoalsService } from '../src/app/goals/goals.service';
import { AsyncApiValidator, TopicReader } from '@owd/testing';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

const SECRET = 'whsec_Zq9!xT4#pL7-unique-secret-value';
const PUBLIC_URL = 'https://93.184.215.14/hooks/owd';

async function refusedOnSave(rule: string): Promise<number> {
  const values = (await register.getSingleMetric('owd_api_addresses_refused_total')?.get())?.values ?? [];
  return values.find((v) => v.labels['rule'] === rule && v.labels['action'] === 'save')?.value ?? 0;
}

describe('manifest-api goals', () => {
  let t: TestApp;
  let reader: TopicReader;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    reader = await new TopicReader(t.brokers, t.prefix, [TOPICS.GOAL_CHANGED]).start();
    ({ token } = await createWorkspace(t));
  });

  afterAll(async () => {
    await reader?.stop();
    await t?.close();
  });

  const snapshots = (goalId: string) => reader.all<GoalChangedPayload>(GoalChanged.type, (p) => p.goalId === goalId);

  it('creates a goal in Test mode and publishes its full snapshot as goal.changed version 1', async () => {
    const res = await t.request('POST', '/api/goals', {
      token, body: { name: 'Economy', sourceLang: 'en', recipientUrl: PUBLIC_URL, publishPolicy: 'draft', fieldDefaults: { desk: 'Economy' }, ownerEmail: 'desk@example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Economy', sourceLang: 'en', channel: 'http_address', recipientUrl: PUBLIC_URL, deliveryMode: 'test', sendImmediately: false,
      secondLanguageEnabled: false, secondLanguage: null, publishPolicy: 'draft', fieldDefaults: { desk: 'Economy' }, version: 1,
      secret: { set: false, setAt: null }, verification: { verified: false, verifiedAt: null },
    });
    const event = await reader.waitFor<GoalChangedPayload>(GoalChanged.type, (p) => p.goalId === res.body.id);
    expect(event.payload).toEqual({
      goalId: res.body.id, workspaceId: res.body.workspaceId, version: 1, deleted: false, name: 'Economy', sourceLang: 'en',
      recipientUrl: PUBLIC_URL, deliveryMode: 'test', secretCiphertext: null, sendImmediately: false, secondLanguageEnabled: false,
      secondLanguage: null, publishPolicy: 'draft', fieldDefaults: { desk: 'Economy' }, ownerEmail: 'desk@example.com',
    });
    expect(event.key).toBe(res.body.id);
    // As a consumer outside reads it: the raw message against docs/asyncapi.yaml with the standard formats.
    const message = reader.messages.find((m) => m.envelope?.eventId === event.eventId);
    const outside = new AsyncApiValidator();
    expect(outside.errors('goalChangedV1', JSON.parse(message?.raw ?? 'null'))).toEqual([]);
    expect(outside.errors('goalChangedV1', message?.headers, 'headers')).toEqual([]);
  });

  it('reads, lists, changes and deletes a goal, each change a new goal.changed version', async () => {
    const created = (await t.request('POST', '/api/goals', { token, body: { name: 'Sport', sourceLang: 'en' } })).body;
    expect((await t.request('GET', `/api/goals/${created.id}`, { token })).body).toEqual(created);
    expect((await t.request('GET', '/api/goals', { token })).body.data.map((g: { id: string }) => g.id)).toContain(created.id);

    const patched = await t.request('PATCH', `/api/goals/${created.id}`, {
      token, body: { name: 'Sport desk', secondLanguageEnabled: true, secondLanguage: 'uk', recipientUrl: PUBLIC_URL, deliveryMode: 'production' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Sport desk', secondLanguageEnabled: true, secondLanguage: 'uk', deliveryMode: 'production', version: 2 });

    const unchanged = await t.request('PATCH', `/api/goals/${created.id}`, { token, body: { name: 'Sport desk' } });
    expect(unchanged.body.version).toBe(2);

    expect((await t.request('DELETE', `/api/goals/${created.id}`, { token })).status).toBe(204);
    expect((await t.request('GET', `/api/goals/${created.id}`, { token })).status).toBe(404);
    await reader.waitFor<GoalChangedPayload>(GoalChanged.type, (p) => p.goalId === created.id && p.deleted, 'the deletion snapshot');
    expect(snapshots(created.id).map((e) => [e.payload.version, e.payload.name, e.payload.deleted])).toEqual([
      [1, 'Sport', false], [2, 'Sport desk', false], [3, 'Sport desk', true],
    ]);
  });

  it('refuses settings that break a rule with 422 naming the field, and null for a required setting with 400', async () => {
    const goal = (await t.request('POST', '/api/goals', { token, body: { name: 'Rules', sourceLang: 'en' } })).body;
    const prod = await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { deliveryMode: 'production' } });
    expect(prod.status).toBe(422);
    expect(prod.body.errors).toEqual([{ field: 'recipientUrl', message: expect.any(String) }]);
    const lang = await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { secondLanguageEnabled: true } });
    expect(lang.body.errors).toEqual([{ field: 'secondLanguage', message: expect.any(String) }]);
    const nulled = await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { name: null } });
    expect(nulled.status).toBe(400);
    expect(nulled.body.errors[0].field).toBe('name');
  });

  it.each(['josé-1603bd@example.com', 'desk@exämple.com', 'desk@example'])(
    'refuses the owner e-mail %s with 400 naming ownerEmail, since goal.changed publishes it as an ASCII `email` (issue #18)',
    async (ownerEmail) => {
      const res = await t.request('POST', '/api/goals', { token, body: { name: 'Mail', sourceLang: 'en', ownerEmail } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual([{ field: 'ownerEmail', message: expect.stringContaining('ASCII') }]);
    },
  );

  it.each([
    ['http://127.0.0.1/', 'loopback', '127.0.0.1'],
    ['http://169.254.169.254/', 'cloud-metadata', '169.254.169.254'],
    ['http://10.1.2.3:8080/hook', 'private', '10.1.2.3'],
  ])('refuses the recipient URL %s with 422 naming the rule and the address, and counts it', async (url, rule, address) => {
    const refusedBefore = await refusedOnSave(rule);
    const res = await t.request('POST', '/api/goals', { token, body: { name: 'Internal', sourceLang: 'en', recipientUrl: url } });
    expect(res.status).toBe(422);
    expect(await refusedOnSave(rule)).toBe(refusedBefore + 1);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'https://owd.dev/problems/address-refused', status: 422, rule, address });
    expect(res.body.errors).toEqual([{ field: 'recipientUrl', message: expect.any(String) }]);
  });

  it('switches Send immediately on only after a Send test reached the current URL; a new URL drops the verification', async () => {
    const goal = (await t.request('POST', '/api/goals', { token, body: { name: 'Immediate', sourceLang: 'en', recipientUrl: PUBLIC_URL } })).body;
    const early = await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { sendImmediately: true } });
    expect(early.status).toBe(409);
    expect(early.body.type).toBe('https://owd.dev/problems/not-verified');

    const goals = t.app.get(GoalsService);
    expect(await goals.markVerified(goal.id, 'https://93.184.215.14/other', null)).toBe(false);
    expect(await goals.markVerified(goal.id, PUBLIC_URL, 'v1.a-secret-the-goal-does-not-have')).toBe(false);
    expect(await goals.markVerified(goal.id, PUBLIC_URL, null)).toBe(true);
    const on = await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { sendImmediately: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ sendImmediately: true, verification: { verified: true } });

    const moved = await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { recipientUrl: 'https://93.184.215.15/hook' } });
    expect(moved.body).toMatchObject({ sendImmediately: false, verification: { verified: false, verifiedAt: null } });
    expect((await t.request('PATCH', `/api/goals/${goal.id}`, { token, body: { sendImmediately: true } })).status).toBe(409);
  });

  it('keeps the secret write-only: set/removed state in reads, only the sealed form in goal.changed and the database', async () => {
    const goal = (await t.request('POST', '/api/goals', { token, body: { name: 'Secretive', sourceLang: 'en' } })).body;
    const set = await t.request('PUT', `/api/goals/${goal.id}/secret`, { token, body: { secret: SECRET } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ set: true, setAt: expect.any(String) });
    expect((await t.request('GET', `/api/goals/${goal.id}`, { token })).body.secret).toEqual(set.body);

    const sealed = await reader.waitFor<GoalChangedPayload>(GoalChanged.type, (p) => p.goalId === goal.id && p.secretCiphertext !== null);
    expect(sealed.payload.secretCiphertext).toMatch(/^v1\./);
    const [row] = await t.app.get(DataSource).query(`SELECT * FROM manifest_api.goals WHERE id = $1`, [goal.id]);
    expect(JSON.stringify(row)).not.toContain(SECRET);

    expect((await t.request('DELETE', `/api/goals/${goal.id}/secret`, { token })).status).toBe(204);
    expect((await t.request('GET', `/api/goals/${goal.id}`, { token })).body.secret).toEqual({ set: false, setAt: null });
    await reader.waitFor<GoalChangedPayload>(GoalChanged.type, (p) => p.goalId === goal.id && p.version === 3 && p.secretCiphertext === null);
  });

  it('refuses a secret that is not 16–256 printable ASCII characters without spaces, without echoing it', async () => {
    const goal = (await t.request('POST', '/api/goals', { token, body: { name: 'Weak', sourceLang: 'en' } })).body;
    for (const secret of ['short-secret', `${SECRET} with spaces`, `${SECRET}\u00e9`, 'x'.repeat(257)]) {
      const res = await t.request('PUT', `/api/goals/${goal.id}/secret`, { token, body: { secret } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'secret', message: expect.any(String) }]);
      expect(res.text).not.toContain(secret);
    }
  });

  it('never echoes the secret in any response or event of this file', async () => {
    expect(t.responseBodies.length).toBeGreaterThan(10);
    for (const body of t.responseBodies) expect(body).not.toContain(SECRET);
    for (const message of reader.messages) expect(message.raw).not.toContain(SECRET);
  });
});
