import type { ServerResponse } from 'node:http';
import { waitFor, startReceiver, type TestReceiver } from '@owd/testing';
import { DeliveryWorker } from '../src/app/delivery/delivery-worker.service';
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

  it('on shutdown finishes the attempts in flight and records them, and gives the work waiting for a slot back unsent', async () => {
    // The receiver answers once the test lets it: the attempts are in flight when the shutdown begins.
    const held: ServerResponse[] = [];
    const r = await startReceiver((_q, res) => void held.push(res));
    receivers.push(r);
    const goalId = await h.goal({ url: `${r.url}/slowish` });
    const worker = h.app.get(DeliveryWorker);
    // 10 attempts at one origin: 8 in flight (its slots), 2 claimed with them and waiting here for a slot.
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => h.request(goalId)));
    await waitFor(() => r.requests.length === 8 && worker.readySlots === 2, { what: '8 attempts in flight and 2 waiting' });
    const sent = new Set(r.requests.map((q) => q.headers['x-sh-delivery']));

    const stopping = h.stopApp();
    await waitFor(() => worker.readySlots === 0, { what: 'the waiting attempts given back' });
    for (const res of held.splice(0)) res.writeHead(200).end();
    await stopping;

    const { rows } = await h.db.query(
      `SELECT d.delivery_id::text AS id, a.outcome, a.status, w.delivery_id IS NOT NULL AS waiting, w.claim_token, w.claims,
              (SELECT count(*)::int FROM dispatcher.outbox WHERE value LIKE '%' || d.delivery_id || '%') AS events
         FROM dispatcher.deliveries d LEFT JOIN dispatcher.attempts a USING (delivery_id) LEFT JOIN dispatcher.attempts_due w USING (delivery_id)
        WHERE d.delivery_id = ANY($1::uuid[])`,
      [deliveries.map((d) => d.deliveryId)],
    );
    expect(r.requests).toHaveLength(8);
    expect(rows.filter((row) => sent.has(row.id)).map(({ id: _id, ...row }) => row))
      .toEqual(Array(8).fill({ outcome: 'delivered', status: 200, waiting: false, claim_token: null, claims: null, events: 1 }));
    expect(rows.filter((row) => !sent.has(row.id)).map(({ id: _id, ...row }) => row))
      .toEqual(Array(2).fill({ outcome: null, status: null, waiting: true, claim_token: null, claims: 0, events: 0 }));
  });
});
