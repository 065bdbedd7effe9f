import { waitFor } from '@owd/testing';
import { SERVICES } from '../system/support/stack';
import { FaultHarness, STREAM, expectClean, pause } from './support/harness';
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

    // The stream keeps its rate through the fault: chunks, batches and attempts are in flight when it hits.
    const stream = h.stream(goalId, `Kill ${service}`);
    await stream.reached(1 / 3);
    if (service === 'dispatcher') await waitFor(() => target.unanswered > 0, { what: 'an attempt in flight' });
    await h.stack.kill(service);
    await pause(1500);
    await h.stack.start(service);
    const streamed = await stream.done();
    // The stream may have ended before the restart: a few more once the service is back.
    const ids = [...streamed, ...(await h.submit(goalId, 10, `after ${service} is back`))];

    const ledger = await h.ledger(`SIGKILL ${service}`, ids, [target], stream.unanswered);
    expectClean(ledger);
    // The API was down for part of the stream: those submissions got no answer, and were not counted.
    if (service === 'manifest-api') expect(stream.unanswered).toBeGreaterThan(0);
    else expect(streamed).toHaveLength(stream.total);
    // The dispatcher died with an attempt open: that attempt is made again after its lease, same bytes.
    if (service === 'dispatcher') expect(ledger.duplicates).toBeGreaterThan(0);
  });

  it('SIGKILL of manifest-api mid-stream of batch intakes: each batch stored whole or not at all, every result delivered once', async () => {
    const perRequest = 10;
    const { target, goalId } = await h.receiverGoal('Kill API batches', answer204);
    // The same results a second as the other cases, ten to a request.
    const stream = h.stream(goalId, 'Kill API batches', Math.ceil(STREAM.results / perRequest), STREAM.perSecond / perRequest, perRequest);
    await stream.reached(1 / 3);
    await h.stack.kill('manifest-api');
    await pause(1500);
    await h.stack.start('manifest-api');
    const ids = await stream.done();

    expect(stream.unanswered).toBeGreaterThan(0);
    // An unanswered batch may have been stored before the API died: then all of it, and it is delivered too.
    expectClean(await h.ledger('SIGKILL manifest-api, batches', ids, [target], stream.unanswered * perRequest));
    const stored = new Map<string, number>();
    for (const title of await h.titles(goalId)) {
      const batch = /^Kill API batches (\d+)\.\d+$/.exec(title)?.[1];
      if (batch) stored.set(batch, (stored.get(batch) ?? 0) + 1);
    }
    expect([...stored.values()].filter((n) => n !== perRequest)).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(ids.length / perRequest);
  });

  it('a second dispatcher joins mid-stream and leaves mid-batch (two rebalances): nothing lost, one body per delivery', async () => {
    const { target, goalId } = await h.receiverGoal('Rebalance', answer204);

    const stream = h.stream(goalId, 'Rebalance');
    await stream.reached(0.2);
    await h.stack.start('dispatcher', 'dispatcher#2');
    await stream.reached(0.6);
    await h.stack.kill('dispatcher#2', 'SIGTERM');
    const ids = await stream.done();

    expect(ids).toHaveLength(stream.total);
    expectClean(await h.ledger('rebalance dispatcher', ids, [target]));
  });
});
