import { waitFor, startReceiver, type TestReceiver } from '@owd/testing';
import { startDispatcher, type DispatcherHarness } from './support/dispatcher-harness';

describe('dispatcher without a development sink, and its shutdown', () => {
  let h: DispatcherHarness;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    h = await startDispatcher({ ALLOWED_TARGET_CIDRS: '127.0.0.0/8', DEV_SINK_URL: '', DISPATCH_POLL_MS: '50' });
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('records a test-mode delivery as failed with "development sink unavailable" and never calls the real receiver', async () => {
    const real = await startReceiver();
    receivers.push(real);
    const goalId = await h.goal({ url: `${real.url}/real`, mode: 'test' });
    const d = await h.request(goalId);
    expect(await h.waitForAttempt(d.deliveryId, 1)).toMatchObject({
      outcome: 'permanent', errorClass: 'dev_sink_unavailable', errorMessage: 'development sink unavailable',
      status: null, final: true, nextAttemptAt: null,
    });
    expect(real.requests).toHaveLength(0);
  });

  it('on shutdown finishes the attempt in flight and records it before the app is gone', async () => {
    const r = await startReceiver((_q, res) => setTimeout(() => res.writeHead(200).end(), 800));
    receivers.push(r);
    const goalId = await h.goal({ url: `${r.url}/slowish` });
    const d = await h.request(goalId);
    await waitFor(() => r.requests.length === 1, { what: 'the attempt in flight' });

    await h.stopApp();

    const { rows } = await h.db.query(
      `SELECT a.outcome, a.status, (SELECT count(*)::int FROM dispatcher.attempts_due WHERE delivery_id = $1) AS queued,
              (SELECT count(*)::int FROM dispatcher.outbox WHERE value LIKE '%' || $1 || '%') AS events
         FROM dispatcher.attempts a WHERE a.delivery_id = $1`,
      [d.deliveryId],
    );
    expect(rows).toEqual([{ outcome: 'delivered', status: 200, queued: 0, events: 1 }]);
  });
});
