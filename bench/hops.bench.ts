// hops: where a delivery's latency goes at a fixed rate. Results arrive on a timer (open loop) at half of steady's
// throughput by default, every receiver answers at once, and a consumer of the bench's own reads each event of a
// result with the moment its service handed it to Kafka (the record's timestamp, which the service's producer sets as
// it sends): the time between two moments is a hop (the outbox relay included in each). Percentiles per hop show
// which one makes the tail. The measured seconds come after a warm-up at the same rate (WARM_UP_SECONDS), whose hops
// are printed apart. The reader fetches a few times a second, so it costs the broker and the machine little.
//   npm run bench -- hops [RATE|STEADY_JSON] [SECONDS] [GOALS]     (defaults: half of the newest steady, 30 s, 50 goals)
import { TOPICS, type TopicName } from '@owd/events';
import { waitFor } from '@owd/testing';
import { arrivalRate, arrive, WARM_UP_SECONDS } from './support/arrivals';
import { summarize, type LatencySummary } from './support/measure';
import { conditions, load, machine, runScenario, writeResult } from './support/output';
import { BenchSystem, LAZY_FETCH_WAIT_MS, timingReceiver } from './support/system';

const { rate } = arrivalRate(process.argv[2]);
const SECONDS = Number(process.argv[3] ?? 30);
const GOALS = Number(process.argv[4] ?? 50);

/** Moments of one result: accepted and at the receiver by the bench's clock, the others by the events' Kafka timestamps. */
type Moment = 'accepted' | 'revised' | 'requested' | 'status' | 'receiver' | 'attempted';

/** The hops, from one moment to the next on the result's way (`status` is the API's side branch of `requested`). */
const HOPS: readonly [string, Moment, Moment][] = [
  ['API: accepted → result.revised on Kafka', 'accepted', 'revised'],
  ['payload-builder: result.revised → delivery.requested', 'revised', 'requested'],
  ['payload-builder: result.revised → result.status', 'revised', 'status'],
  ['dispatcher: delivery.requested → the request at the receiver', 'requested', 'receiver'],
  ['dispatcher: the receiver → delivery.attempted on Kafka', 'receiver', 'attempted'],
  ['whole: accepted → delivery.attempted on Kafka', 'accepted', 'attempted'],
];

/** Result id → when the first event of `topic` for it (that `accepts`) was handed to Kafka. */
function firstSeen(messages: readonly { topic: string; timestamp: number; envelope?: { payload: unknown } }[], topic: TopicName,
  accepts: (payload: Record<string, unknown>) => boolean = () => true): Map<string, number> {
  const seen = new Map<string, number>();
  for (const m of messages) {
    const payload = m.envelope?.payload as Record<string, unknown> | undefined;
    const id = String(payload?.['resultId']);
    if (m.topic === topic && payload && accepts(payload) && !seen.has(id)) seen.set(id, m.timestamp);
  }
  return seen;
}

async function main(): Promise<void> {
  const host = machine();
  const { receiver, firstAt: atReceiver } = await timingReceiver();
  const system = await BenchSystem.create({});
  try {
    await system.start();
    const goals = await system.addGoals(GOALS, 'Hops desk', `${receiver.url}/hook`);
    const reader = await system.readTopics(
      [TOPICS.GOAL_CHANGED, TOPICS.RESULT_REVISED, TOPICS.DELIVERY_REQUESTED, TOPICS.RESULT_STATUS, TOPICS.DELIVERY_ATTEMPTED],
      { fetchWaitMs: LAZY_FETCH_WAIT_MS },
    );
    try {
      // The reader has joined its group and reads (the goals' events are there) before the results arrive.
      await waitFor(() => reader.messages.some((m) => m.topic === TOPICS.GOAL_CHANGED), { timeoutMs: 60_000, what: 'the bench\'s reader reading' });
      const warmUp = await arrive(system, goals, rate, WARM_UP_SECONDS);
      const { submitted, rejected } = await arrive(system, goals, rate, SECONDS, { first: warmUp.next });
      const ids = [...warmUp.submitted.keys(), ...submitted.keys()];
      const attempted = () => firstSeen(reader.messages, TOPICS.DELIVERY_ATTEMPTED, (p) => p['outcome'] === 'delivered');
      await waitFor(() => {
        const seen = attempted();
        return ids.every((id) => seen.has(id));
      }, { timeoutMs: 120_000, intervalMs: LAZY_FETCH_WAIT_MS, what: 'every delivered attempt on Kafka' });
      const at: Record<Moment, Map<string, number>> = {
        accepted: new Map([...warmUp.submitted, ...submitted].map(([id, s]) => [id, s.acceptedAt])),
        revised: firstSeen(reader.messages, TOPICS.RESULT_REVISED),
        requested: firstSeen(reader.messages, TOPICS.DELIVERY_REQUESTED),
        status: firstSeen(reader.messages, TOPICS.RESULT_STATUS),
        receiver: atReceiver,
        attempted: attempted(),
      };
      const hopsOf = (of: readonly string[]) => Object.fromEntries(HOPS.map(([name, from, to]): [string, LatencySummary | null] => [name,
        summarize(of.flatMap((id) => (at[from].has(id) && at[to].has(id) ? [(at[to].get(id) as number) - (at[from].get(id) as number)] : [])))]));
      const hops = hopsOf([...submitted.keys()]);
      const warmUpHops = hopsOf([...warmUp.submitted.keys()]);
      console.log(`\nhops: ${submitted.size} results at ${rate}/s for ${SECONDS} s after ${warmUp.submitted.size} in ${WARM_UP_SECONDS} s to warm up, over ${GOALS} goals; `
        + `every receiver answers 204 at once; ${warmUp.rejected.length + rejected.length} refused`);
      console.log('ms between two moments of a result: accepted (201) and at the receiver by the bench\'s clock, each event when its service handed it to Kafka (the record\'s timestamp)');
      console.table(hops);
      console.log(`the warm-up's ${warmUp.submitted.size} results, the same hops`);
      console.table(warmUpHops);
      console.log(conditions(host));
      writeResult('hops', {
        machine: { ...host, loadAverage1mAtEnd: load() }, settings: { ratePerSecond: rate, seconds: SECONDS, warmUpSeconds: WARM_UP_SECONDS, goals: GOALS },
        submitted: submitted.size, refused: rejected.length, hopsMs: hops, warmUp: { submitted: warmUp.submitted.size, refused: warmUp.rejected.length, hopsMs: warmUpHops },
      });
    } finally {
      await reader.stop();
    }
  } finally {
    await system.close();
    await receiver.close();
  }
}

runScenario(main);
