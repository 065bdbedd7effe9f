// Who calls a function in a CPU profile (cpu-profile.cjs): the self-time samples of every function of that name,
// grouped by the chain of callers above it, most samples first. summarise.mjs says which functions hold the time;
// this says on whose behalf (e.g. `_copyActual` under kafkajs' encoder or pg's writer, `writev` under a query or a
// response).
//   node tools/profile/callers.mjs <file.cpuprofile> <function name> [depth, default 5] [chains shown, default 12]
import { readFileSync } from 'node:fs';

const [file, name, depthArg = '5', topArg = '12'] = process.argv.slice(2);
if (!file || !name) {
  console.error('usage: node tools/profile/callers.mjs <file.cpuprofile> <function name> [depth] [chains shown]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const samplesOf = new Map();
for (const id of profile.samples) samplesOf.set(id, (samplesOf.get(id) ?? 0) + 1);

const frame = ({ callFrame: f }) => `${f.functionName || '(anonymous)'}@${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
const chains = new Map();
let total = 0;
for (const n of profile.nodes) {
  const samples = samplesOf.get(n.id) ?? 0;
  if (n.callFrame.functionName !== name || samples === 0) continue;
  total += samples;
  const callers = [];
  for (let id = parentOf.get(n.id); id !== undefined && callers.length < Number(depthArg); id = parentOf.get(id)) callers.push(frame(nodes.get(id)));
  const chain = callers.join(' < ');
  chains.set(chain, (chains.get(chain) ?? 0) + samples);
}
console.log(`${name}: ${total} of ${profile.samples.length} samples`);
for (const [chain, samples] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) {
  console.log(`${String(samples).padStart(7)}  < ${chain}`);
}
