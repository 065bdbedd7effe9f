import { startReceiver, type TestReceiver } from '@owd/testing';
import { FaultHarness, RETRY_DELAYS_MS, expectClean } from './support/harness';
import { LedgerReceiver, type Behaviour } from './support/ledger-receiver';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers

/**
 * Receivers that misbehave, each its own case with its own stream: the ledger still balances, retries follow
 * the schedule, nothing goes where it must not.
 */
describe('fault: receivers that misbehave', () => {
  let h: FaultHarness;
  let internal: TestReceiver;

  beforeAll(async () => {
    h = await FaultHarness.start();
    internal = await startReceiver();
  });

  afterAll(async () => {
    await h?.stop();
    await internal?.close();
  });

  async function stream(name: string, behaviour: Behaviour, count = 10): Promise<{ target: LedgerReceiver; ids: string[] }> {
    const { target, goalId } = await h.receiverGoal(name, behaviour);
    return { target, ids: await h.submit(goalId, count, name) };
  }

  const attemptsOf = async (id: string): Promise<Json[]> => (await h.api.call('GET', `/results/${id}`))['attempts'];

  it('flapping (500 for a while, then 204): every result delivered, each retry on its schedule', async () => {
    let flapping = true;
    const { target, ids } = await stream('Flapping', () => (flapping ? { status: 500 } : { status: 204 }));
    setTimeout(() => (flapping = false), RETRY_DELAYS_MS[0] + 1000);
    const ledger = await h.ledger('flapping receiver', ids, [target]);
    expectClean(ledger);
    expect(ledger.requests).toBeGreaterThan(ids.length); // the 500s were retried
  });

  it('connection reset on the first attempt: retried with the same bytes, delivered', async () => {
    const { target, ids } = await stream('Reset', (_req, attempt) => (attempt === 1 ? { reset: true } : { status: 204 }));
    expectClean(await h.ledger('connection reset', ids, [target]));
    for (const id of ids) {
      expect((await attemptsOf(id)).map((a) => [a['outcome'], a['errorClass']])).toEqual([['retriable', 'connection_failed'], ['delivered', null]]);
    }
  });

  it('trickling bytes past the timeout: the attempt is cut as a timeout and retried, then delivered', async () => {
    const { target, ids } = await stream('Trickle', (_req, attempt) => (attempt === 1 ? { trickle: true } : { status: 204 }), 5);
    expectClean(await h.ledger('trickling receiver', ids, [target]));
    for (const id of ids) {
      const [first, second] = await attemptsOf(id);
      expect([first['outcome'], first['errorClass'], second['outcome']]).toEqual(['retriable', 'timeout', 'delivered']);
      expect(first['durationMs']).toBeGreaterThanOrEqual(2900);
      expect(first['durationMs']).toBeLessThan(6000);
    }
  });

  it('3xx to an internal address: never followed, the delivery fails for good, nothing reaches the internal addresses', async () => {
    const locations = [`${internal.url}/admin`, 'http://169.254.169.254/latest/meta-data/'];
    let n = 0;
    const { target, ids } = await stream('Redirect', () => ({ status: [302, 307, 308][n % 3], headers: { location: locations[n++ % 2] } }));
    const ledger = await h.ledger('3xx to an internal address', ids, [target]);
    expectClean(ledger, true);
    expect(ledger.failed).toBe(ids.length);
    expect(ledger.requests).toBe(ids.length); // one attempt each: a redirect is final
    expect(internal.requests).toHaveLength(0);
    for (const id of ids) {
      const [only] = await attemptsOf(id);
      expect(only).toMatchObject({ outcome: 'permanent', errorClass: 'redirect', final: true });
      expect(only['errorMessage']).toMatch(/redirects are not followed \(30[278] to (127\.0\.0\.1:\d+|169\.254\.169\.254)\)/);
    }
  });

  it('409 with a higher revision: the same content is sent again as the next revision, one body per revision', async () => {
    const { target, ids } = await stream('Conflict', (_req, attempt) => (attempt === 1 && _req.body.includes('"revision":1,')
      ? { status: 409, body: JSON.stringify({ revision: 5 }) } : { status: 204 }));
    expectClean(await h.ledger('409 with a higher revision', ids, [target]));
    for (const id of ids) {
      const view = await h.api.call('GET', `/results/${id}`);
      expect(view['state']).toMatchObject({ status: 'delivered', revision: 6 });
      const revisions = target.entries.filter((e) => e.resultId === id).map((e) => [e.revision, e.answer]);
      expect(revisions).toEqual([[1, '409'], [6, '204']]);
    }
  });
});
