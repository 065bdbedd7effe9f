import { register } from 'prom-client';
import { verify } from '@owd/signer';
import { startReceiver, type TestReceiver } from '@owd/testing';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

const SECRET = 'whsec_send_test_0123456789abcdef';
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

describe('Send test (POST /api/goals/{id}/send-test)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ ALLOWED_TARGET_CIDRS: '127.0.0.0/8', ATTEMPT_TIMEOUT_MS: '2000' });
    ({ token } = await createWorkspace(t));
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
  });

  async function goalWith(url: string): Promise<string> {
    const goal = await t.request('POST', '/api/goals', { token, body: { name: 'Desk', sourceLang: 'en', recipientUrl: url } });
    expect(goal.status).toBe(201);
    expect((await t.request('PUT', `/api/goals/${goal.body.id}/secret`, { token, body: { secret: SECRET } })).status).toBe(200);
    return goal.body.id;
  }

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
