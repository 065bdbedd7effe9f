import { register } from 'prom-client';
import { verify } from '@owd/signer';
import { GoalChanged, TOPICS, type GoalChangedPayload } from '@owd/events';
import { startReceiver, TopicReader, type ReceiverHandler, type TestReceiver } from '@owd/testing';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

const SECRET = 'whsec_send_test_0123456789abcdef';
const NEW_SECRET = 'whsec_send_test_rotated_98765432';
const receivers: TestReceiver[] = [];

async function refusedCount(rule: string): Promise<number> {
  const values = (await register.getSingleMetric('owd_api_addresses_refused_total')?.get())?.values ?? [];
  return values.find((v) => v.labels['rule'] === rule && v.labels['action'] === 'send_test')?.value ?? 0;
}

/** A loopback receiver answering with `status` (and a Location for 3xx). */
async function receiver(status: number, extra: Record<string, string> = {}): Promise<TestReceiver> {
  const r = await startReceiver((_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json', 'x-receiver': 'demo', ...extra }).end('{"ok":true}'));
  receivers.push(r);
  return r;
}

/** Answers 204 to a request carrying `Bearer <secret>`, 401 to any other, like a receiver that checks the secret. */
function acceptingOnly(secret: string): ReceiverHandler {
  return (req, res) => res.writeHead(req.headers['authorization'] === `Bearer ${secret}` ? 204 : 401).end();
}

async function secretChecking(secret: string): Promise<TestReceiver> {
  const r = await startReceiver(acceptingOnly(secret));
  receivers.push(r);
  return r;
}

describe('Send test (POST /api/goals/{id}/send-test)', () => {
  let t: TestApp;
  let reader: TopicReader;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ ALLOWED_TARGET_CIDRS: '127.0.0.0/8', ATTEMPT_TIMEOUT_MS: '2000' });
    reader = await new TopicReader(t.brokers, t.prefix, [TOPICS.GOAL_CHANGED]).start();
    ({ token } = await createWorkspace(t));
  });

  afterAll(async () => {
    await reader?.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
  });

  async function goalWith(url: string): Promise<string> {
    const goal = await t.request('POST', '/api/goals', { token, body: { name: 'Desk', sourceLang: 'en', recipientUrl: url } });
    expect(goal.status).toBe(201);
    expect((await t.request('PUT', `/api/goals/${goal.body.id}/secret`, { token, body: { secret: SECRET } })).status).toBe(200);
    return goal.body.id;
  }

  const sendTest = async (goalId: string, url?: string) => (await t.request('POST', `/api/goals/${goalId}/send-test`, { token, body: url ? { url } : {} })).body;
  const goalOf = async (goalId: string) => (await t.request('GET', `/api/goals/${goalId}`, { token })).body;

  it('sends a signed sample payload v5 to the saved URL in Test mode, shows the answer, and verifies the URL', async () => {
    const r = await receiver(204);
    const goalId = await goalWith(r.url);
    const res = await t.request('POST', `/api/goals/${goalId}/send-test`, { token, body: {} });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'delivered', sent: true, verified: true, response: { status: 204 } });
    expect(res.body.response.headers['x-receiver']).toBe('demo');
    expect(res.body.request.headers['Authorization']).toBe('Bearer [secret]');
    expect(res.text).not.toContain(SECRET);
    expect(r.requests).toHaveLength(1);
    expect(verify(SECRET, r.requests[0].headers, r.requests[0].body)).toEqual({ ok: true });
    expect(r.requests[0].headers['authorization']).toBe(`Bearer ${SECRET}`);
    const body = JSON.parse(r.requests[0].body.toString());
    expect(body).toMatchObject({ payload_version: 5, event: 'workflow.action', mode: 'article', workflow_name: 'Desk' });
    expect(res.body.request.body).toBe(r.requests[0].body.toString());

    const enabled = await t.request('PATCH', `/api/goals/${goalId}`, { token, body: { sendImmediately: true } });
    expect(enabled.status).toBe(200);
  });

  it('verifies the (URL, secret) pair: changing or removing the secret clears the verification and Send immediately', async () => {
    const r = await secretChecking(SECRET);
    const goalId = await goalWith(r.url);
    expect((await sendTest(goalId)).verified).toBe(true);
    expect((await t.request('PATCH', `/api/goals/${goalId}`, { token, body: { sendImmediately: true } })).status).toBe(200);

    expect((await t.request('PUT', `/api/goals/${goalId}/secret`, { token, body: { secret: NEW_SECRET } })).status).toBe(200);
    expect(await goalOf(goalId)).toMatchObject({ sendImmediately: false, verification: { verified: false, verifiedAt: null } });
    expect(await sendTest(goalId)).toMatchObject({ outcome: 'permanent', response: { status: 401 }, verified: false });
    const refused = await t.request('PATCH', `/api/goals/${goalId}`, { token, body: { sendImmediately: true } });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    r.handle(acceptingOnly(NEW_SECRET));
    expect((await sendTest(goalId)).verified).toBe(true);
    expect((await goalOf(goalId)).verification.verified).toBe(true);
    expect((await t.request('DELETE', `/api/goals/${goalId}/secret`, { token })).status).toBe(204);
    expect((await goalOf(goalId)).verification).toEqual({ verified: false, verifiedAt: null });
  });

  it('clears the verification and Send immediately when a Send test to the saved URL fails, not when a typed URL fails', async () => {
    const r = await secretChecking(SECRET);
    const goalId = await goalWith(r.url);
    expect((await sendTest(goalId)).verified).toBe(true);
    expect((await t.request('PATCH', `/api/goals/${goalId}`, { token, body: { sendImmediately: true } })).status).toBe(200);

    const typed = await receiver(500);
    expect(await sendTest(goalId, typed.url)).toMatchObject({ outcome: 'retriable', verified: false });
    expect(await goalOf(goalId)).toMatchObject({ sendImmediately: true, verification: { verified: true } });

    r.handle((_req, res) => res.writeHead(503).end());
    expect(await sendTest(goalId)).toMatchObject({ outcome: 'retriable', response: { status: 503 }, verified: false });
    const cleared = await goalOf(goalId);
    expect(cleared).toMatchObject({ sendImmediately: false, verification: { verified: false, verifiedAt: null } });
    await reader.waitFor<GoalChangedPayload>(GoalChanged.type, (p) => p.goalId === goalId && p.version === cleared.version && !p.sendImmediately);
    expect((await t.request('PATCH', `/api/goals/${goalId}`, { token, body: { sendImmediately: true } })).status).toBe(409);
  });

  it('does not verify when the secret changed while the Send test was on its way', async () => {
    const r = await receiver(204);
    const goalId = await goalWith(r.url);
    r.handle((_req, res) => void t.request('PUT', `/api/goals/${goalId}/secret`, { token, body: { secret: NEW_SECRET } }).then(() => res.writeHead(204).end()));
    expect(await sendTest(goalId)).toMatchObject({ outcome: 'delivered', verified: false });
    expect((await goalOf(goalId)).verification.verified).toBe(false);
  });

  it('sends to a typed, unsaved URL without verifying the saved one', async () => {
    const saved = await receiver(204);
    const typed = await receiver(500);
    const goalId = await goalWith(saved.url);
    const res = await t.request('POST', `/api/goals/${goalId}/send-test`, { token, body: { url: typed.url } });
    expect(res.body).toMatchObject({ outcome: 'retriable', sent: true, verified: false, response: { status: 500 } });
    expect(typed.requests).toHaveLength(1);
    expect(saved.requests).toHaveLength(0);
    expect((await t.request('PATCH', `/api/goals/${goalId}`, { token, body: { sendImmediately: true } })).status).toBe(409);
  });

  it.each([
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
    ['a private address', 'http://10.1.2.3/hook', 'private'],
    ['an IPv4-mapped loopback spelling', 'http://[::ffff:7f00:1]/', 'ipv4-mapped'],
  ])('refuses %s and says which rule, sending nothing', async (_name, url, rule) => {
    const saved = await receiver(204);
    const goalId = await goalWith(saved.url);
    const refusedBefore = await refusedCount(rule);
    const res = await t.request('POST', `/api/goals/${goalId}/send-test`, { token, body: { url } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'refused', sent: false, rule, request: null, verified: false });
    expect(await refusedCount(rule)).toBe(refusedBefore + 1);
  });

  it('does not follow a redirect, even to an allowed address', async () => {
    const target = await receiver(204);
    const redirecting = await receiver(302, { location: target.url });
    const goalId = await goalWith(redirecting.url);
    const res = await t.request('POST', `/api/goals/${goalId}/send-test`, { token, body: {} });
    expect(res.body).toMatchObject({ outcome: 'permanent', errorClass: 'redirect', response: { status: 302 } });
    expect(res.body.errorMessage).toMatch(/redirects are not followed/);
    expect(target.requests).toHaveLength(0);
  });

  it('answers 404 for another workspace\'s goal', async () => {
    const r = await receiver(204);
    const goalId = await goalWith(r.url);
    const other = await createWorkspace(t, 'Other');
    const res = await t.request('POST', `/api/goals/${goalId}/send-test`, { token: other.token, body: {} });
    expect(res.status).toBe(404);
    expect(r.requests).toHaveLength(0);
  });
});
