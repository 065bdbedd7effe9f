import { waitFor } from '@owd/testing';
import { SERVICES } from '../system/support/stack';
import { FaultHarness, expectClean, pause } from './support/harness';
import { answer204, failFirst, type Behaviour } from './support/ledger-receiver';

/** Answers after a while: attempts are in flight when the dispatcher dies. */
const slow: Behaviour = () => ({ status: 204, delayMs: 500 });
// retry-scheduler: retry timers are pending when it dies.
const behaviours: Partial<Record<string, Behaviour>> = { 'retry-scheduler': failFirst, dispatcher: slow };

/**
 * Process faults: each service SIGKILLed mid-stream (no shutdown hook runs) and restarted, and a
 * consumer-group rebalance of the dispatcher mid-batch. The stream keeps flowing where the API is up.
 */
describe('fault: a service dies mid-stream', () => {
  let h: FaultHarness;

  beforeAll(async () => {
    h = await FaultHarness.start();
  });

  afterAll(async () => {
    await h?.stop();
  });

  it.each(SERVICES)('SIGKILL of %s mid-stream, then a restart: every result delivered once as content', async (service) => {
    const { target, goalId } = await h.receiverGoal(`Kill ${service}`, behaviours[service] ?? answer204);

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
    const { target, goalId } = await h.receiverGoal('Rebalance', answer204);

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
