// catch-up: the dispatcher comes back to a backlog, as a pod does after it was down. With the other services running,
// the dispatcher is killed (SIGKILL), RESULTS results are handed in (payload-builder turns each into a
// delivery.requested that waits on Kafka), and once every one of them is on Kafka the dispatcher starts again and
// delivers them to one receiver answering 204 at once. Reports the backlog, how long the new dispatcher took to deliver
// it (first to last delivery; its wait for the group apart) and at what rate, its CPU per delivery (its start included) and its peak RSS (the kernel's high-water mark of the
// new process, as its pod's memory limit meets it) against the memory target; checks that every result was delivered
// (exit code 1 otherwise).
//   npm run bench -- catch-up [RESULTS] [GOALS]     (defaults: 10,000 results, 50 goals)
import { TOPICS, type DeliveryRequestedPayload } from '@owd/events';
import { waitFor } from '@owd/testing';
import { closedLoop } from './support/arrivals';
import { cpuMs, highWaterRssMb, rssMb } from './support/measure';
import { conditions, load, machine, runScenario, writeResult } from './support/output';
import { countStates, listResults, readUntil } from './support/result-states';
import { BenchSystem, LAZY_FETCH_WAIT_MS, timingReceiver } from './support/system';

const RESULTS = Number(process.argv[2] ?? 10_000);
const GOALS = Number(process.argv[3] ?? 50);
const SUBMITTERS = 16;
/** Issue #15's memory target, per service. */
const TARGET_RSS_MB = 150;
/** How often the new dispatcher's RSS is read while it catches up (the peak itself is the kernel's high-water mark). */
const RSS_SAMPLE_MS = 1_000;

async function main(): Promise<void> {
  const host = machine();
  console.log(`\ncatch-up: ${RESULTS} results over ${GOALS} goals handed in while the dispatcher is down, then delivered by a new one; `
    + 'one receiver answering 204 at once');
  const { receiver, firstAt: answered } = await timingReceiver();
  const system = await BenchSystem.create({});
  try {
    await system.start();
    const goals = await system.addGoals(GOALS, 'Catch-up desk', `${receiver.url}/hook`);
    const requested = await system.readTopics([TOPICS.DELIVERY_REQUESTED], { fetchWaitMs: LAZY_FETCH_WAIT_MS });
    try {
      await system.stack.kill('dispatcher');
      const ids: string[] = [];
      await closedLoop(SUBMITTERS, 0, RESULTS, async (i) => {
        ids.push(await system.submit(goals[i % goals.length], i));
      });
      const onKafka = () => new Set(requested.messages.map((m) => (m.envelope?.payload as DeliveryRequestedPayload | undefined)?.resultId));
      await waitFor(() => {
        const seen = onKafka();
        return ids.every((id) => seen.has(id));
      }, { timeoutMs: 300_000, intervalMs: LAZY_FETCH_WAIT_MS, what: 'every delivery.requested on Kafka' });
      if (answered.size > 0) throw new Error(`${answered.size} results reached the receiver while the dispatcher was down`);

      const startedAt = Date.now();
      await system.stack.start('dispatcher');
      const pid = system.stack.pid('dispatcher') as number;
      const rss: number[] = [];
      const sampler = setInterval(() => rss.push(Math.round(rssMb(pid))), RSS_SAMPLE_MS);
      try {
        await waitFor(() => ids.every((id) => answered.has(id)), { timeoutMs: 600_000, intervalMs: 200, what: 'every result at the receiver' });
      } finally {
        clearInterval(sampler);
      }
      const cpu = cpuMs(pid);
      const peakRssMb = Math.round(highWaterRssMb(pid));
      // From the first delivery to the last: before it, the new member waits for its group (the killed one's
      // partitions are handed over once its session has expired), which is the group's time, not the dispatcher's.
      const [firstAt, lastAt] = [Math.min(...answered.values()), Math.max(...answered.values())];
      const seconds = (lastAt - firstAt) / 1000;
      // Delivered as the API records it: the ten answered last, then every result's state.
      const lastAnswered = [...ids].sort((a, b) => (answered.get(b) as number) - (answered.get(a) as number)).slice(0, 10);
      await readUntil(system.api, lastAnswered, (r) => r.state.status === 'delivered', { timeoutMs: 120_000 });
      const states = countStates(await listResults(system.api, goals));
      const balanced = states.listed === RESULTS && states.delivered === RESULTS;

      const report = {
        machine: { ...host, loadAverage1mAtEnd: load() },
        settings: { results: RESULTS, goals: GOALS, submitters: SUBMITTERS },
        backlog: RESULTS,
        catchUp: {
          startToFirstDeliverySeconds: Number(((firstAt - startedAt) / 1000).toFixed(1)),
          seconds: Number(seconds.toFixed(1)),
          deliveredPerSecond: Math.round(RESULTS / seconds),
          dispatcherCpuMsPerDelivery: Number((cpu / RESULTS).toFixed(2)),
          dispatcherPeakRssMb: peakRssMb,
          dispatcherRssMbEverySecond: rss,
        },
        states,
        balanced,
      };
      console.table({
        'catch-up': {
          backlog: RESULTS, 'start → first delivery, s': report.catchUp.startToFirstDeliverySeconds, 'first → last delivery, s': report.catchUp.seconds, 'delivered /s': report.catchUp.deliveredPerSecond,
          'dispatcher CPU ms / delivery': report.catchUp.dispatcherCpuMsPerDelivery, 'dispatcher peak RSS MB': peakRssMb,
          'RSS MB, largest sample': Math.max(0, ...rss),
        },
      });
      console.log(`the API lists ${states.listed} results, ${states.delivered} of them delivered`);
      const targets = { [`the catching-up dispatcher < ${TARGET_RSS_MB} MB RSS`]: peakRssMb < TARGET_RSS_MB };
      console.table(Object.fromEntries(Object.entries(targets).map(([target, met]) => [target, { met }])));
      console.log(conditions(host));
      writeResult('catch-up', { ...report, targets });
      if (!balanced) throw new Error(`catch-up: ${RESULTS} submitted, ${states.listed} listed, ${states.delivered} delivered`);
    } finally {
      await requested.stop();
    }
  } finally {
    await system.close();
    await receiver.close();
  }
}

runScenario(main);
