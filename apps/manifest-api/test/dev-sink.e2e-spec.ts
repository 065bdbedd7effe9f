import { createHash, createHmac } from 'node:crypto';
import { createWorkspace, startTestApp, type TestApp } from './support/test-app';

describe('manifest-api development sink (DEV_SINK_ENABLED=true)', () => {
  let t: TestApp;
  let token: string;
  let goalId: string;

  beforeAll(async () => {
    t = await startTestApp({ DEV_SINK_ENABLED: 'true' });
    ({ token } = await createWorkspace(t));
    goalId = (await t.request('POST', '/api/goals', { token, body: { name: 'Test mode', sourceLang: 'en' } })).body.id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('records the exact bytes and headers of a delivery, redacts the bearer secret, and lists them for the workspace', async () => {
    const body = '{"payload_version":5,  "title":"Ünïcode"}';
    const signature = createHmac('sha256', 'whsec_sink_secret_0001').update(`1763769600.${body}`).digest('hex');
    const res = await t.request('POST', '/internal/dev-sink', { raw: body, headers: {
      'content-type': 'application/json', 'x-sh-goal': goalId, 'x-sh-timestamp': '1763769600',
      'x-sh-signature': `sha256=${signature}`, authorization: 'Bearer whsec_sink_secret_0001',
    } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, id: expect.any(String) });

    const list = await t.request('GET', `/api/goals/${goalId}/dev-sink`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ method: 'POST', body, bodySha256: createHash('sha256').update(body).digest('hex') });
    expect(list.body[0].headers).toMatchObject({ 'x-sh-goal': goalId, 'x-sh-signature': `sha256=${signature}`, authorization: '[redacted]' });
    expect(list.text).not.toContain('whsec_sink_secret_0001');
  });

  it('answers a request without a known goal with a problem, and keeps other workspaces out', async () => {
    expect((await t.request('POST', '/internal/dev-sink', { raw: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await t.request('POST', '/internal/dev-sink', { raw: '{}', headers: { 'x-sh-goal': '00000000-0000-4000-8000-000000000000' } })).status).toBe(404);
    const other = await createWorkspace(t, 'Other');
    expect((await t.request('GET', `/api/goals/${goalId}/dev-sink`, { token: other.token })).status).toBe(404);
  });
});
