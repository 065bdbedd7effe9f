// idle: what the system costs with nothing to deliver. The five built services run as in steady (real Kafka
// and PostgreSQL, a workspace, no goals), and after a settling pause the CPU each one uses per second, and
// the Kafka requests it sends per second, are measured over a window. This is the floor under every
// delivery's cost: at r deliveries per second, a service's idle CPU adds idle / r ms to each delivery.
//   npm run bench -- idle [SECONDS]      (builds first; see docs/performance.md)
import { CostMeter, ProcessMeter, ServerMeter, perUnit } from './support/measure';
import { conditions, machine, runScenario, writeResult } from './support/output';
import { BenchSystem, SERVICES } from './support/system';

const SECONDS = Number(process.argv[2] ?? 30);
const SETTLE_SECONDS = 10;

async function main(): Promise<void> {
  const host = machine();
  const system = await BenchSystem.create({});
  try {
    await system.start();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
    const meter = new ProcessMeter(system.pids());
    const servers = new ServerMeter(system.serverPids());
    const counters = new CostMeter(system.metricsUrls());
    meter.start();
    servers.start();
    await counters.start();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const cpuPerSecond = perUnit(meter.cpu(), SECONDS);
    const serverCpuPerSecond = perUnit(servers.cpu(), SECONDS);
    const perSecond = await counters.perUnit(SECONDS);
    meter.stop();

    console.log(`\nidle: the system running with nothing to deliver, ${SECONDS} s after ${SETTLE_SECONDS} s of settling`);
    console.table(Object.fromEntries(SERVICES.map((s) => [s, {
      'CPU ms / s': cpuPerSecond[s], 'SQL statements / s': perSecond[s].statements, 'Kafka requests / s': perSecond[s].kafkaRequests,
    }])));
    const services = Object.values(cpuPerSecond).reduce((a, b) => a + b, 0);
    console.log(`CPU ms per second: services ${services.toFixed(1)}, ${Object.entries(serverCpuPerSecond).map(([n, ms]) => `${n} ${ms}`).join(', ')}`);
    console.log(conditions(host));
    writeResult('idle', { scenario: 'idle', machine: host, seconds: SECONDS, cpuMsPerSecond: cpuPerSecond, serverCpuMsPerSecond: serverCpuPerSecond, perSecond });
  } finally {
    await system.close();
  }
}

runScenario(main);
