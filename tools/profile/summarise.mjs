// Where the CPU time of each profile went: self time by package (or our own code) and the top functions.
//   node tools/profile/summarise.mjs <dir with .cpuprofile files> [top]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir = 'profiles', topArg = '15'] = process.argv.slice(2);
const top = Number(topArg);

function bucket(url) {
  if (!url) return '(native / idle / gc)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node core';
  if (url.includes('/dist/apps/')) return 'our code (bundle)';
  return url.startsWith('file:') || url.startsWith('/') ? 'our code' : url;
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort()) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  let total = 0;
  let idle = 0;
  const buckets = new Map();
  const functions = new Map();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id);
    total += us;
    if (callFrame.functionName === '(idle)') { idle += us; continue; }
    const b = bucket(callFrame.url);
    buckets.set(b, (buckets.get(b) ?? 0) + us);
    const fn = `${callFrame.functionName || '(anonymous)'} ${b === 'our code (bundle)' ? '' : `[${b}]`}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us) => `${((100 * us) / busy).toFixed(1)}%`;
  console.log(`\n${file}: ${(busy / 1000).toFixed(0)} ms busy of ${(total / 1000).toFixed(0)} ms`);
  console.log('  by package:');
  for (const [b, us] of [...buckets].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`    ${pct(us).padStart(6)}  ${b}`);
  console.log('  top functions (self time):');
  for (const [f, us] of [...functions].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`    ${pct(us).padStart(6)}  ${f}`);
}
