import { FaultHarness, article, expectClean, pause } from './support/harness';
import { faultInfra } from './support/infra';
import { failFirst } from './support/ledger-receiver';

/**
 * Infrastructure faults under a stream of results: the broker restarts, PostgreSQL is away for 20 s.
 * The services stay up; they must ride it out and lose nothing.
 */
describe('fault: the broker or the database goes away mid-stream', () => {
  let h: FaultHarness;

  beforeAll(async () => {
    h = await FaultHarness.start();
  });

  afterAll(async () => {
    await h?.stop();
    await faultInfra.startKafka();
    await faultInfra.startPostgres();
  });

  it('the Kafka broker restarts mid-stream: every result delivered once as content, retries on schedule', async () => {
    const { target, goalId } = await h.receiverGoal('Broker restart', failFirst);
    const stream = h.stream(goalId, 'Broker restart');
    await stream.reached(1 / 3);
    await faultInfra.stopKafka();
    // The API keeps accepting: results wait in its outbox until the broker is back.
    await pause(3000);
    await faultInfra.startKafka();
    const ids = await stream.done();

    expect(ids).toHaveLength(stream.total);
    expectClean(await h.ledger('Kafka broker restart', ids, [target]));
  });

  it('PostgreSQL stops for 20 s mid-stream: the API refuses cleanly while it is away, nothing accepted is lost', async () => {
    const { target, goalId } = await h.receiverGoal('Database outage', failFirst);
    const stream = h.stream(goalId, 'Database outage');
    await stream.reached(1 / 3);
    await faultInfra.stopPostgres();
    const stoppedAt = Date.now();

    // While the database is away a submission is answered at once with a problem, never accepted.
    const during = await h.api.request('POST', `/goals/${goalId}/results`, article('while the database is down'), AbortSignal.timeout(15_000))
      .catch((err: Error) => err);
    expect(during).toBeInstanceOf(Response);
    const refusal = during as Response;
    expect(refusal.status).toBe(503);
    expect(refusal.headers.get('content-type')).toContain('application/problem+json');

    await pause(Math.max(0, 20_000 - (Date.now() - stoppedAt)));
    await faultInfra.startPostgres();
    await h.apiAvailable();
    const ids = [...(await stream.done()), ...(await h.submit(goalId, 10, 'after the database is back'))];

    // The stream's submissions while the database was away were refused, none accepted and lost.
    expect(stream.refused + stream.unanswered).toBeGreaterThan(0);
    expectClean(await h.ledger('PostgreSQL stopped 20 s', ids, [target], stream.unanswered));
  });
});
