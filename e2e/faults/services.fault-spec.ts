import { waitFor } from '@owd/testing';
import { SERVICES } from '../system/support/stack';
import { FaultHarness, expectClean } from './support/harness';
import { LedgerReceiver, answer204, type Behaviour } from './support/ledger-receiver';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** First attempt of every delivery fails: retry timers are pending when the fault strikes. */
const failFirst: Behaviour = (_req, attempt) => (attempt === 1 ? { status: 503 } : { status: 204 });
/** Answers after a while: attempts are in flight when the dispatcher dies. */
const slow: Behaviour = () => ({ status: 204, delayMs: 500 });
const behaviours: Partial<Record<string, Behaviour>> = { 'retry-scheduler': failFirst, dispatcher: slow };

/**
 * Process faults: each service SIGKILLed mid-stream (no shutdown hook runs) and restarted, and a
 * consumer-group rebalance of the dispatcher mid-batch. The stream keeps flowing where the API is up.
 */
describe('fault: a service dies mid-stream', () => {
  let h: FaultHarness;
  const receivers: LedgerReceiver[] = [];

  beforeAll(async () => {
    h = await FaultHarness.start();
  });

  afterAll(async () => {
    await h?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(): Promise<LedgerReceiver> {
    const r = await LedgerReceiver.start();
    receivers.push(r);
    return r;
  }

  it.each(SERVICES)('SIGKILL of %s mid-stream, then a restart: every result delivered once as content', async (service) => {
    const behaviour = behaviours[service] ?? answer204;
    const target = await receiver();
    const goalId = await h.goalFor(target, `Kill ${service}`);
    target.arm(behaviour);

    const ids = await h.submit(goalId, 15, `before ${service} dies`);
    if (service === 'dispatcher') await waitFor(() => target.unanswered > 0, { what: 'an attempt in flight' });
    await h.stack.kill(service);
    if (service !== 'manifest-api') ids.push(...(await h.submit(goalId, 10, `while ${service} is down`)));
    await pause(1500);
    await h.stack.start(service);
    ids.push(...(await h.submit(goalId, 10, `after ${service} is back`)));

    const ledger = await h.ledger(`SIGKILL ${service}`, ids, [target]);
    expectClean(ledger);
    // The dispatcher died with an attempt open: that attempt is made again after its lease, same bytes.
    if (service === 'dispatcher') expect(ledger.duplicates).toBeGreaterThan(0);
  });

  it('a second dispatcher joins mid-stream and leaves mid-batch (two rebalances): nothing lost, one body per delivery', async () => {
    const target = await receiver();
    const goalId = await h.goalFor(target, 'Rebalance');
    target.arm(answer204);

    const ids = await h.submit(goalId, 10, 'one dispatcher');
    const joining = h.stack.start('dispatcher', 'dispatcher#2');
    ids.push(...(await h.submit(goalId, 15, 'second dispatcher joining')));
    await joining;
    ids.push(...(await h.submit(goalId, 15, 'two dispatchers')));
    await h.stack.kill('dispatcher#2', 'SIGTERM');
    ids.push(...(await h.submit(goalId, 10, 'second dispatcher gone')));

    expectClean(await h.ledger('rebalance dispatcher', ids, [target]));
  });
});
