import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { register } from 'prom-client';
import { CloudEvent, Kafka as CloudEventsKafka, type KafkaMessage } from 'cloudevents';
import { DataSource } from 'typeorm';
import { createEnvelope, DeliveryAttempted, DeliveryRequested, DeliveryRetryDue, DeliveryRetryRequested, type DeliveryRequestedPayload } from '@owd/events';
import { verify, verifyBearer } from '@owd/signer';
import { AsyncApiValidator, consumedEvents, waitFor, type ReceivedRequest, type TestReceiver } from '@owd/testing';
import { AttemptRecorder } from '../src/app/delivery/attempt-recorder.service';
import { DeliveryIntake } from '../src/app/delivery/delivery-intake.service';
import { DeliveryWorker } from '../src/app/delivery/delivery-worker.service';
import { WorkQueue } from '../src/app/delivery/work-queue.repository';
import { receiverPool } from './support/receivers';
import { startDispatcher, type DispatcherHarness, type RequestedDelivery } from './support/dispatcher-harness';

const SECRET = 'whsec_e2e_3f9a1c7d5b';

/** The §2.1 headers every attempt of `d` carries, whatever the attempt. */
function expectDeliveryHeaders(req: ReceivedRequest, d: RequestedDelivery, secret?: string): void {
  expect(req.method).toBe('POST');
  expect(req.body.equals(d.body)).toBe(true);
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers['idempotency-key']).toBe(d.resultId);
  expect(req.headers['x-sh-delivery']).toBe(d.deliveryId);
  expect(Math.abs(Number(req.headers['x-sh-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  if (secret) {
    expect(verify(secret, req.headers, req.body)).toEqual({ ok: true });
    expect(verifyBearer(secret, req.headers)).toEqual({ ok: true });
  } else {
    expect(req.headers['authorization']).toBeUndefined();
    expect(req.headers['x-sh-signature']).toBeUndefined();
  }
}

async function metricValue(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await register.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val))
    .reduce((sum, v) => sum + v.value, 0);
}

describe('dispatcher: delivery attempts on a real broker and database', () => {
  let h: DispatcherHarness;
  let sink: TestReceiver;
  const { receiver, closeAll } = receiverPool();

  beforeAll(async () => {
    sink = await receiver();
    h = await startDispatcher({
      ALLOWED_TARGET_CIDRS: '127.0.0.0/8',
      RETRY_DELAYS_MS: '200,400',
      DEV_SINK_URL: `${sink.url}/dev-sink`,
      DISPATCH_POLL_MS: '50',
    });
  });

  afterAll(async () => {
    await h?.close();
    await closeAll();
  });

  async function deliveryRow(deliveryId: string): Promise<{ status: string; series: number; last_attempt: number }> {
    const { rows } = await h.db.query(`SELECT status, series, last_attempt FROM dispatcher.deliveries WHERE delivery_id = $1`, [deliveryId]);
    return rows[0];
  }

  /** Records the delivery ids the worker's own claim hands out, until `restore`. */
  function watchLoopClaims(): { claimedByLoop: string[]; restore: () => void } {
    const queue = h.app.get(WorkQueue);
    const claim = queue.claim.bind(queue);
    const claimedByLoop: string[] = [];
    queue.claim = async (...args: Parameters<WorkQueue['claim']>) => {
      const work = await claim(...args);
      claimedByLoop.push(...work.map((w) => w.deliveryId));
      return work;
    };
    return { claimedByLoop, restore: () => void (queue.claim = claim) };
  }

  async function queuedAndRecorded(deliveryId: string): Promise<{ queued: number; recorded: number }> {
    const { rows } = await h.db.query(
      `SELECT (SELECT count(*)::int FROM dispatcher.attempts_due WHERE delivery_id = $1) AS queued,
              (SELECT count(*)::int FROM dispatcher.attempts WHERE delivery_id = $1) AS recorded`,
      [deliveryId],
    );
    return rows[0];
  }

  it('delivers the frozen bytes, signed, with every §2.1 header, and publishes the attempt (with its workspace, without the secret)', async () => {
    const r = await receiver((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const workspaceId = randomUUID();
    const goalId = await h.goal({ url: `${r.url}/hooks/in?token=abc`, secret: SECRET, workspaceId });
    const d = await h.request(goalId, { revision: 4 });

    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toEqual({
      deliveryId: d.deliveryId, resultId: d.resultId, goalId, workspaceId, revision: 4, series: 1, attempt: 1, targetHost: `127.0.0.1:${r.port}`,
      status: 200, durationMs: expect.any(Number), outcome: 'delivered', errorClass: null, errorMessage: null,
      attemptedAt: expect.any(String), endedAt: expect.any(String), nextAttemptAt: null, conflictRevision: null, final: true,
      response: { headers: expect.objectContaining({ 'content-type': 'application/json' }), body: '{"ok":true}', bodyEncoding: 'utf-8', truncated: false },
    });
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0].path).toBe('/hooks/in?token=abc');
    expectDeliveryHeaders(r.requests[0], d, SECRET);
    expect(h.rawAttempted.join('\n')).not.toContain(SECRET);
    expect(await deliveryRow(d.deliveryId)).toMatchObject({ status: 'delivered', last_attempt: 1 });
    expect(await metricValue('owd_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
  });

  it('puts CloudEvents binary-mode headers on delivery.attempted, read by the CloudEvents SDK as the envelope says', async () => {
    const r = await receiver();
    const d = await h.request(await h.goal({ url: `${r.url}/in` }));
    await h.waitForAttempt(d.deliveryId, 1);
    const message = h.attemptedMessages.find((m) => m.envelope?.payload && (m.envelope.payload as { deliveryId?: string }).deliveryId === d.deliveryId);
    const envelope = message?.envelope;
    if (!message || !envelope) throw new Error('no delivery.attempted message of the delivery');

    const kafkaMessage: KafkaMessage<string> = { headers: message.headers, key: message.key, value: message.raw, body: message.raw };
    const event = CloudEventsKafka.toEvent(kafkaMessage);
    if (!(event instanceof CloudEvent)) throw new Error('a binary-mode message is one event, not a batch');
    expect(event.validate()).toBe(true);
    expect(event).toMatchObject({
      specversion: '1.0', id: envelope.eventId, source: '/outbound-delivery/dispatcher', type: DeliveryAttempted.type,
      time: envelope.occurredAt, subject: d.resultId, datacontenttype: 'application/json', partitionkey: d.resultId,
    });
    expect(event.data).toEqual(JSON.parse(message.raw));
    const outside = new AsyncApiValidator();
    expect(outside.errors('deliveryAttemptedV1', JSON.parse(message.raw))).toEqual([]);
    expect(outside.errors('deliveryAttemptedV1', message.headers, 'headers')).toEqual([]);
  });

  it('retries 500s with nextAttemptAt per RETRY_DELAYS_MS, resends identical bytes with the same X-SH-Delivery, and fails after attempt 3', async () => {
    const r = await receiver((_q, res) => res.writeHead(500).end('down'));
    const goalId = await h.goal({ url: `${r.url}/in`, secret: SECRET });
    const d = await h.request(goalId);

    const a1 = await h.waitForAttempt(d.deliveryId, 1);
    expect(a1).toMatchObject({ outcome: 'retriable', errorClass: 'server_error', status: 500, final: false });
    expect(Date.parse(a1.nextAttemptAt as string) - Date.parse(a1.endedAt as string)).toBe(200);

    await h.emit(DeliveryRetryDue, { deliveryId: d.deliveryId, resultId: d.resultId, attempt: 2, dueAt: a1.nextAttemptAt as string });
    const a2 = await h.waitForAttempt(d.deliveryId, 2);
    expect(a2).toMatchObject({ attempt: 2, outcome: 'retriable', final: false });
    expect(Date.parse(a2.nextAttemptAt as string) - Date.parse(a2.endedAt as string)).toBe(400);
    expect(r.requests).toHaveLength(2);
    for (const req of r.requests) expectDeliveryHeaders(req, d, SECRET);
    expect(r.requests[1].body.equals(r.requests[0].body)).toBe(true);

    await h.emit(DeliveryRetryDue, { deliveryId: d.deliveryId, resultId: d.resultId, attempt: 3, dueAt: a2.nextAttemptAt as string });
    const a3 = await h.waitForAttempt(d.deliveryId, 3);
    expect(a3).toMatchObject({ attempt: 3, outcome: 'retriable', status: 500, final: true, nextAttemptAt: null });
    expect(await deliveryRow(d.deliveryId)).toMatchObject({ status: 'failed', series: 1, last_attempt: 3 });

    // Manual retry of the failed delivery: same bytes, same X-SH-Delivery, a new series from attempt 1.
    r.handle((_q, res) => res.writeHead(202).end());
    await h.emit(DeliveryRetryRequested, { resultId: d.resultId, goalId, deliveryId: d.deliveryId });
    const manual = await h.waitForAttempt(d.deliveryId, 1, 2);
    expect(manual).toMatchObject({ series: 2, attempt: 1, outcome: 'delivered', status: 202, final: true });
    // On the topic, (deliveryId, series, attempt) names each attempt once, though attempt 1 is there twice.
    const published = h.attemptsOf(d.deliveryId).map((p) => `${p.series}/${p.attempt}`);
    expect(published).toEqual(['1/1', '1/2', '1/3', '2/1']);
    expect(r.requests).toHaveLength(4);
    expectDeliveryHeaders(r.requests[3], d, SECRET);
    expect(await deliveryRow(d.deliveryId)).toMatchObject({ status: 'delivered', series: 2, last_attempt: 1 });
    const { rows } = await h.db.query(`SELECT series, attempt FROM dispatcher.attempts WHERE delivery_id = $1 ORDER BY series, attempt`, [d.deliveryId]);
    expect(rows).toEqual([{ series: 1, attempt: 1 }, { series: 1, attempt: 2 }, { series: 1, attempt: 3 }, { series: 2, attempt: 1 }]);
  });

  it('waits for the goal version a body was built under: a switch to Production is never sent under the older Test settings', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in`, mode: 'test', version: 1 });
    const sinkBefore = sink.requests.length;
    const d = await h.request(goalId, { goalVersion: 2 });
    await h.held(d.deliveryId);
    // The worker took the attempt and put it back: the goal it holds is older than the body's.
    await waitFor(async () => {
      const { rows } = await h.db.query(`SELECT claims FROM dispatcher.attempts_due WHERE delivery_id = $1`, [d.deliveryId]);
      return rows[0]?.claims >= 1;
    }, { what: 'the attempt postponed', timeoutMs: 30_000 });
    expect(sink.requests.length).toBe(sinkBefore);
    expect(r.requests).toHaveLength(0);

    await h.goal({ goalId, url: `${r.url}/in`, mode: 'production', version: 2 });
    expect(await h.waitForAttempt(d.deliveryId, 1)).toMatchObject({ outcome: 'delivered', final: true });
    expect(r.requests).toHaveLength(1);
    expect(sink.requests.length).toBe(sinkBefore);
  });

  it('fails a 404 permanently, sends no secret headers without a secret, and ignores a stale retry timer', async () => {
    const r = await receiver((_q, res) => res.writeHead(404).end('no such hook'));
    const goalId = await h.goal({ url: `${r.url}/gone` });
    const d = await h.request(goalId);

    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toMatchObject({ outcome: 'permanent', errorClass: 'client_error', status: 404, final: true, nextAttemptAt: null });
    expect(a.errorMessage).toBe('receiver answered 404 Not Found');
    expectDeliveryHeaders(r.requests[0], d);

    const stale = await h.emit(DeliveryRetryDue, { deliveryId: d.deliveryId, resultId: d.resultId, attempt: 2, dueAt: new Date().toISOString() });
    await h.processed('dispatcher.deliveries', stale.eventId);
    expect(await queuedAndRecorded(d.deliveryId)).toEqual({ queued: 0, recorded: 1 });
    expect(r.requests).toHaveLength(1);
  });

  it("publishes the receiver's answer with the attempt: status, headers and only the first 4 KiB of a longer body", async () => {
    const body = `{"error":"<field desk> is required"}${' '.repeat(10_000)}end`;
    const r = await receiver((_q, res) => res.writeHead(422, { 'content-type': 'application/json', 'x-request-id': 'rq-1' }).end(body));
    const goalId = await h.goal({ url: `${r.url}/strict` });
    const d = await h.request(goalId);

    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toMatchObject({ status: 422, outcome: 'permanent' });
    expect(a.response?.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'rq-1' });
    expect(a.response?.truncated).toBe(true);
    expect(a.response?.body).toBe(body.slice(0, 4096));
  });

  it('publishes no answer for an attempt that got none', async () => {
    const goalId = await h.goal({ url: 'http://127.0.0.1:9/closed' });
    const d = await h.request(goalId);
    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toMatchObject({ status: null, errorClass: 'connection_failed', response: null });
  });

  it('reports a 409 carrying an integer revision as a conflict with that revision', async () => {
    const r = await receiver((_q, res) => res.writeHead(409, { 'content-type': 'application/json' }).end('{"revision":7}'));
    const goalId = await h.goal({ url: `${r.url}/in` });
    const d = await h.request(goalId, { revision: 5 });
    expect(await h.waitForAttempt(d.deliveryId, 1)).toMatchObject({
      revision: 5, outcome: 'conflict', status: 409, conflictRevision: 7, final: true, nextAttemptAt: null,
    });
    expect(await deliveryRow(d.deliveryId)).toMatchObject({ status: 'conflict' });

    // A conflict is not a failure: a manual retry of it is ignored.
    const retry = await h.emit(DeliveryRetryRequested, { resultId: d.resultId, goalId, deliveryId: d.deliveryId });
    await h.processed('dispatcher.deliveries', retry.eventId);
    expect(await queuedAndRecorded(d.deliveryId)).toEqual({ queued: 0, recorded: 1 });
  });

  it('refuses a cloud metadata address with its rule, before any connection', async () => {
    const refusedBefore = await metricValue('owd_addresses_refused_total', { rule: 'cloud-metadata' });
    const goalId = await h.goal({ url: 'http://169.254.169.254/latest/meta-data/' });
    const d = await h.request(goalId);
    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toMatchObject({
      outcome: 'refused', errorClass: 'address_refused', status: null, targetHost: '169.254.169.254', final: true, nextAttemptAt: null,
    });
    expect(a.errorMessage).toMatch(/^address refused by rule cloud-metadata: 169\.254\.169\.254 /);
    expect(await metricValue('owd_addresses_refused_total', { rule: 'cloud-metadata' })).toBe(refusedBefore + 1);
    expect(await deliveryRow(d.deliveryId)).toMatchObject({ status: 'failed' });
  });

  it('refuses localhost by name even though 127.0.0.0/8 is allowed, and the receiver is never called', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `http://localhost:${r.port}/in` });
    const d = await h.request(goalId);
    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toMatchObject({ outcome: 'refused', errorClass: 'address_refused', targetHost: `localhost:${r.port}` });
    expect(a.errorMessage).toContain('loopback');
    expect(r.requests).toHaveLength(0);
  });

  it('sends a test-mode delivery to the development sink with X-SH-Goal, never to the real receiver', async () => {
    const real = await receiver();
    const goalId = await h.goal({ url: `${real.url}/real`, mode: 'test', secret: SECRET });
    const d = await h.request(goalId);
    const a = await h.waitForAttempt(d.deliveryId, 1);
    expect(a).toMatchObject({ outcome: 'delivered', targetHost: `127.0.0.1:${sink.port}`, final: true });
    const atSink = sink.requests.filter((q) => q.headers['x-sh-delivery'] === d.deliveryId);
    expect(atSink).toHaveLength(1);
    expect(atSink[0].path).toBe('/dev-sink');
    expect(atSink[0].headers['x-sh-goal']).toBe(goalId);
    expectDeliveryHeaders(atSink[0], d, SECRET);
    expect(real.requests).toHaveLength(0);
  });

  it('keeps fast receivers fast while a slow receiver holds every slot of its origin, and the slow one never gets more', async () => {
    // The slow receiver answers only when the test lets it: whether the fast ones got through first is then a fact, not a race with a timeout.
    const held: ServerResponse[] = [];
    const slow = await receiver((_q, res) => void held.push(res));
    const fast = await receiver();
    const slowGoal = await h.goal({ url: `${slow.url}/slow` });
    const fastGoal = await h.goal({ url: `${fast.url}/fast` });

    const slowDeliveries = await Promise.all(Array.from({ length: 12 }, () => h.request(slowGoal)));
    await waitFor(() => slow.requests.length >= 8, { what: 'the slow receiver holding its 8 slots' });
    const fastDeliveries = await Promise.all(Array.from({ length: 20 }, () => h.request(fastGoal)));

    const fastAttempts = await Promise.all(fastDeliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
    expect(fastAttempts.every((a) => a.outcome === 'delivered')).toBe(true);
    // Meanwhile the slow origin kept its 8 requests open and its other 4 waited for a slot.
    expect(slow.requests).toHaveLength(8);
    expect((await Promise.all(slowDeliveries.map((d) => queuedAndRecorded(d.deliveryId)))).map((q) => q.recorded)).toEqual(Array(12).fill(0));

    slow.handle((_q, res) => res.writeHead(204).end());
    for (const res of held.splice(0)) res.writeHead(204).end();
    const slowAttempts = await Promise.all(slowDeliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
    expect(slowAttempts.every((a) => a.outcome === 'delivered')).toBe(true);
    expect(slow.maxOpen).toBeLessThanOrEqual(8);
    // Keep-alive: 20 requests over fewer connections.
    expect(new Set(fast.requests.map((q) => q.remotePort)).size).toBeLessThan(20);
  });

  it('gives a receiver answering 2xx quickly more than DISPATCH_PER_ORIGIN requests in flight while its work waits, and one answering 500 never', async () => {
    const heldFast: ServerResponse[] = [];
    const heldFailing: ServerResponse[] = [];
    const fast = await receiver((_q, res) => void heldFast.push(res));
    const failing = await receiver((_q, res) => void heldFailing.push(res));
    const fastGoal = await h.goal({ url: `${fast.url}/fast` });
    const failingGoal = await h.goal({ url: `${failing.url}/failing` });
    const fastDeliveries = await Promise.all(Array.from({ length: 150 }, () => h.request(fastGoal)));
    const failingDeliveries = await Promise.all(Array.from({ length: 60 }, () => h.request(failingGoal)));
    // Both origins' 8 slots taken and every delivery stored behind them: from here on each answer finds work waiting.
    const ids = [...fastDeliveries, ...failingDeliveries].map((d) => d.deliveryId);
    await waitFor(async () => {
      const { rows } = await h.db.query(`SELECT count(*)::int AS n FROM dispatcher.deliveries WHERE delivery_id = ANY($1::uuid[])`, [ids]);
      return rows[0].n === ids.length && heldFast.length === 8 && heldFailing.length === 8;
    }, { what: 'every delivery stored, both receivers holding their 8 slots' });
    // Each answer a tenth of a second after its request (a tenth of what counts as fast), so the requests the
    // dispatcher has in flight are open at the receiver together.
    const answerAfter = (status: number) => (_q: ReceivedRequest, res: ServerResponse) => void setTimeout(() => res.writeHead(status).end(), 100);
    fast.handle(answerAfter(204));
    failing.handle(answerAfter(500));
    for (const res of heldFast.splice(0)) res.writeHead(204).end();
    for (const res of heldFailing.splice(0)) res.writeHead(500).end();

    const fastAttempts = await Promise.all(fastDeliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
    const failingAttempts = await Promise.all(failingDeliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
    expect(fastAttempts.every((a) => a.outcome === 'delivered')).toBe(true);
    expect(failingAttempts.every((a) => a.outcome === 'retriable')).toBe(true);
    expect(fast.maxOpen).toBeGreaterThan(8);
    expect(fast.maxOpen).toBeLessThanOrEqual(32);
    expect(failing.maxOpen).toBeLessThanOrEqual(8);
  });

  it("gives an origin's slot back once its request is over, before the attempt is recorded", async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in` });
    // Recording of this goal's attempts waits for the test: their requests are over, their attempts still open.
    const recorder = h.app.get(AttemptRecorder);
    const record = recorder.record.bind(recorder);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    recorder.record = async (...args: Parameters<AttemptRecorder['record']>) => {
      if (args[0].delivery.goalId === goalId) await gate;
      return record(...args);
    };
    try {
      const deliveries = await Promise.all(Array.from({ length: 12 }, () => h.request(goalId)));
      // 12 requests to one origin with 8 slots: the last 4 go out while the first 8 are not yet recorded.
      await waitFor(() => r.requests.length === 12, { what: 'all twelve requests at the receiver' });
      expect((await Promise.all(deliveries.map((d) => queuedAndRecorded(d.deliveryId)))).map((q) => q.recorded)).toEqual(Array(12).fill(0));
      expect(r.maxOpen).toBeLessThanOrEqual(8);
      release();
      const attempts = await Promise.all(deliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
      expect(attempts.every((a) => a.outcome === 'delivered')).toBe(true);
    } finally {
      release();
      recorder.record = record;
    }
  });

  it("claims a busy origin's next round as it arrives: it waits here with its bytes and starts as slots free, without a claim of its own", async () => {
    const held: ServerResponse[] = [];
    const busy = await receiver((_q, res) => void held.push(res));
    const goalId = await h.goal({ url: `${busy.url}/busy` });
    const worker = h.app.get(DeliveryWorker);
    const { claimedByLoop, restore } = watchLoopClaims();
    try {
      const deliveries = await Promise.all(Array.from({ length: 14 }, () => h.request(goalId)));
      await waitFor(() => busy.requests.length >= 8, { what: 'the receiver holding its 8 slots' });
      // The other 6 were claimed as they were stored and wait here for a slot.
      await waitFor(() => worker.readySlots === 6, { what: 'six claimed attempts waiting for a slot' });
      expect(await metricValue('owd_dispatch_waiting_for_origin', {})).toBe(6);
      const { rows } = await h.db.query(
        `SELECT count(*)::int AS claimed FROM dispatcher.attempts_due WHERE delivery_id = ANY($1::uuid[]) AND claim_token IS NOT NULL`,
        [deliveries.map((d) => d.deliveryId)],
      );
      expect(rows[0].claimed).toBe(14);
      expect(busy.requests).toHaveLength(8);

      busy.handle((_q, res) => res.writeHead(204).end());
      for (const res of held.splice(0)) res.writeHead(204).end();
      const attempts = await Promise.all(deliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
      expect(attempts.every((a) => a.outcome === 'delivered')).toBe(true);
      expect(busy.maxOpen).toBeLessThanOrEqual(8);
      expect(worker.readySlots).toBe(0);
      expect(await metricValue('owd_dispatch_waiting_for_origin', {})).toBe(0);
      expect(claimedByLoop.filter((id) => deliveries.some((d) => d.deliveryId === id))).toEqual([]);
    } finally {
      restore();
      for (const res of held.splice(0)) res.writeHead(204).end();
    }
  });

  it("claims a new delivery's attempt as it is stored and sends the bytes in hand: the worker's own claim never hands it out", async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in`, secret: SECRET });
    const { claimedByLoop, restore } = watchLoopClaims();
    try {
      const deliveries = await Promise.all(Array.from({ length: 5 }, () => h.request(goalId)));
      const attempts = await Promise.all(deliveries.map((d) => h.waitForAttempt(d.deliveryId, 1)));
      expect(attempts.map((a) => a.outcome)).toEqual(Array(5).fill('delivered'));
      for (const d of deliveries) expectDeliveryHeaders(r.requests.find((q) => q.headers['x-sh-delivery'] === d.deliveryId) as ReceivedRequest, d, SECRET);
      expect(claimedByLoop.filter((id) => deliveries.some((d) => d.deliveryId === id))).toEqual([]);
    } finally {
      restore();
    }
  });

  it('gives back the slots of work claimed in a transaction that rolls back; the delivery then comes as new', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in` });
    const body = Buffer.from('{"payload_version":5,"result_id":"rolled-back"}');
    const payload: DeliveryRequestedPayload = {
      deliveryId: randomUUID(), resultId: `res_${randomUUID()}`, goalId, revision: 1, bodyBase64: body.toString('base64'),
      bodySha256: createHash('sha256').update(body).digest('hex'), executedAt: new Date().toISOString(), reason: 'first',
    };
    const envelope = createEnvelope(DeliveryRequested, payload, { correlationId: payload.resultId });
    const worker = h.app.get(DeliveryWorker);
    let held = -1;
    await expect(h.app.get(DataSource).transaction(async (manager) => {
      await h.app.get(DeliveryIntake).deliveries([{ envelope, trace: {} }], manager);
      held = worker.reservedSlots;
      throw new Error('the chunk fails after the insert');
    })).rejects.toThrow('the chunk fails after the insert');
    expect(held).toBe(1);
    expect(worker.reservedSlots).toBe(0);
    expect(await queuedAndRecorded(payload.deliveryId)).toEqual({ queued: 0, recorded: 0 });

    const d = await h.request(goalId, { ...payload, body });
    expect((await h.waitForAttempt(d.deliveryId, 1)).outcome).toBe('delivered');
    expect(r.requests.filter((q) => q.headers['x-sh-delivery'] === payload.deliveryId)).toHaveLength(1);
  });

  it('stores and sends each body of a chunk exactly, whatever their sizes (one binary parameter cut by offset)', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in`, secret: SECRET });
    const bodies = [
      Buffer.from('{'), Buffer.from(JSON.stringify({ text: 'héllo — ✓ 𝄞' })), Buffer.from([0, 255, 92, 120, 34, 44, 123, 125]),
      Buffer.from(JSON.stringify({ text: 'x'.repeat(9 * 1024) })), Buffer.from('{"b":"\\\\x00"}'),
    ];
    const payloads: DeliveryRequestedPayload[] = bodies.map((body) => ({
      deliveryId: randomUUID(), resultId: `res_${randomUUID()}`, goalId, revision: 1, bodyBase64: body.toString('base64'),
      bodySha256: createHash('sha256').update(body).digest('hex'), executedAt: new Date().toISOString(), reason: 'first',
    }));
    const chunk = payloads.map((p) => ({ envelope: createEnvelope(DeliveryRequested, p, { correlationId: p.resultId }), trace: {} }));
    await h.app.get(DataSource).transaction((manager) => h.app.get(DeliveryIntake).deliveries(chunk, manager));

    const { rows } = await h.db.query(
      `SELECT delivery_id, body FROM dispatcher.deliveries WHERE delivery_id = ANY($1::uuid[])`,
      [payloads.map((p) => p.deliveryId)],
    );
    const stored = new Map(rows.map((row: { delivery_id: string; body: Buffer }) => [row.delivery_id, row.body]));
    payloads.forEach((p, i) => expect(stored.get(p.deliveryId)?.equals(bodies[i])).toBe(true));
    await Promise.all(payloads.map((p) => h.waitForAttempt(p.deliveryId, 1)));
    payloads.forEach((p, i) => {
      const sent = r.requests.find((q) => q.headers['x-sh-delivery'] === p.deliveryId) as ReceivedRequest;
      expectDeliveryHeaders(sent, { ...p, body: bodies[i], eventId: chunk[i].envelope.eventId }, SECRET);
    });
  });

  it('sends again, with identical bytes, an attempt whose worker died mid-send (its lease expired)', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in` });
    const body = Buffer.from('{"payload_version":5,"result_id":"crash"}');
    const deliveryId = randomUUID();
    const resultId = `res_${randomUUID()}`;
    // The state a worker leaves behind when it dies after claiming: a claimed row whose lease ran out.
    await h.db.query(
      `INSERT INTO dispatcher.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
       VALUES ($1, $2, $3, 1, $4, $5, now(), 'first', $2)`,
      [deliveryId, resultId, goalId, body, createHash('sha256').update(body).digest('hex')],
    );
    await h.db.query(
      `INSERT INTO dispatcher.attempts_due (delivery_id, series, attempt, due_at, claimed_until, claim_token, claimed_by, claims)
       VALUES ($1, 1, 1, now() - interval '1 minute', now() - interval '1 second', gen_random_uuid(), 'dead-worker', 1)`,
      [deliveryId],
    );
    expect(await h.waitForAttempt(deliveryId, 1)).toMatchObject({ outcome: 'delivered', final: true });
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0].body.equals(body)).toBe(true);
    expect(r.requests[0].headers['x-sh-delivery']).toBe(deliveryId);
    expect(await queuedAndRecorded(deliveryId)).toEqual({ queued: 0, recorded: 1 });
  });

  it('gives up on an attempt that has taken down its workers too often, without sending it', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in` });
    const body = Buffer.from('{}');
    const deliveryId = randomUUID();
    await h.db.query(
      `INSERT INTO dispatcher.deliveries (delivery_id, result_id, goal_id, revision, body, body_sha256, executed_at, reason, correlation_id)
       VALUES ($1, $2, $3, 1, $4, $5, now(), 'first', $2)`,
      [deliveryId, `res_${randomUUID()}`, goalId, body, createHash('sha256').update(body).digest('hex')],
    );
    await h.db.query(
      `INSERT INTO dispatcher.attempts_due (delivery_id, series, attempt, claimed_until, claim_token, claims)
       VALUES ($1, 1, 1, now() - interval '1 second', gen_random_uuid(), 5)`,
      [deliveryId],
    );
    expect(await h.waitForAttempt(deliveryId, 1)).toMatchObject({ outcome: 'permanent', errorClass: 'abandoned', final: true });
    expect(r.requests).toHaveLength(0);
  });

  it('handles a repeated delivery.requested once', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in` });
    const d = await h.request(goalId);
    const { body: _body, eventId: _eventId, ...payload } = d;
    await h.waitForAttempt(d.deliveryId, 1);
    // The copy's event id is not recorded: the deliveries row of its deliveryId tells it, and the handler is counted.
    const handled = () => consumedEvents({ type: DeliveryRequested.type });
    const handledBefore = await handled();
    await h.request(goalId, { ...payload, body: d.body });
    await waitFor(async () => (await handled()) > handledBefore, { what: 'the repeated delivery.requested handled' });
    expect(await queuedAndRecorded(d.deliveryId)).toEqual({ queued: 0, recorded: 1 });
    expect(r.requests).toHaveLength(1);
  });

  it('waits for goal settings that arrive after the delivery, then sends', async () => {
    const r = await receiver();
    const goalId = randomUUID();
    const d = await h.request(goalId);
    await h.held(d.deliveryId);
    await h.goal({ goalId, url: `${r.url}/late` });
    expect(await h.waitForAttempt(d.deliveryId, 1)).toMatchObject({ outcome: 'delivered' });
    expect(r.requests).toHaveLength(1);
  });

  it('keeps the newest goal snapshot: an older version does not overwrite it', async () => {
    const current = await receiver();
    const outdated = await receiver();
    const goalId = await h.goal({ url: `${current.url}/v2`, version: 2 });
    await h.goal({ goalId, url: `${outdated.url}/v1`, version: 1 });
    const d = await h.request(goalId);
    await h.waitForAttempt(d.deliveryId, 1);
    expect(current.requests).toHaveLength(1);
    expect(outdated.requests).toHaveLength(0);
  });

  it('fails a delivery of a deleted goal without sending it', async () => {
    const r = await receiver();
    const goalId = await h.goal({ url: `${r.url}/in`, version: 1 });
    await h.goal({ goalId, url: `${r.url}/in`, version: 2, deleted: true });
    const d = await h.request(goalId);
    expect(await h.waitForAttempt(d.deliveryId, 1)).toMatchObject({
      outcome: 'permanent', errorClass: 'goal_deleted', errorMessage: 'the goal was deleted', final: true,
    });
    expect(r.requests).toHaveLength(0);
  });
});
