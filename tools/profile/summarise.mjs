// Where the CPU time of each profile went: self time by package (or our own code) and the top functions; for
// allocation profiles (alloc-profile.cjs), the bytes allocated the same way, and per event the process published.
//   node tools/profile/summarise.mjs <dir with .cpuprofile or .heapprofile files> [top]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** Adds `amount` under the frame's package and its function name. */
function count(buckets, functions, callFrame, amount) {
  const b = bucket(callFrame.url);
  buckets.set(b, (buckets.get(b) ?? 0) + amount);
  const fn = `${callFrame.functionName || '(anonymous)'} ${b === 'our code (bundle)' ? '' : `[${b}]`}`.trim();
  functions.set(fn, (functions.get(fn) ?? 0) + amount);
}

function print(buckets, functions, share, what) {
  console.log('  by package:');
  for (const [b, n] of [...buckets].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`    ${share(n).padStart(6)}  ${b}`);
  console.log(`  top functions (${what}):`);
  for (const [f, n] of [...functions].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`    ${share(n).padStart(6)}  ${f}`);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.heapprofile')).sort()) {
  const buckets = new Map();
  const functions = new Map();
  let total = 0;
  const walk = (node) => {
    total += node.selfSize;
    if (node.selfSize > 0) count(buckets, functions, node.callFrame, node.selfSize);
    node.children.forEach(walk);
  };
  walk(JSON.parse(readFileSync(join(dir, file), 'utf8')).head);
  const eventsFile = join(dir, file.replace(/\.heapprofile$/, '.events.json'));
  const { published = 0, seconds = 0, survivorsOnly = false } = existsSync(eventsFile) ? JSON.parse(readFileSync(eventsFile, 'utf8')) : {};
  const perEvent = published > 0 ? `, ${(total / published / 1024).toFixed(1)} KiB per event it published (${published})` : '';
  const what = survivorsOnly ? 'that lived through the young generation' : 'allocated';
  console.log(`\n${file}: ${(total / 1048576).toFixed(0)} MiB ${what} in ${seconds} s${perEvent}`);
  print(buckets, functions, (n) => `${((100 * n) / total).toFixed(1)}%`, `bytes ${what}`);
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
    count(buckets, functions, callFrame, us);
  }
  const busy = total - idle;
  console.log(`\n${file}: ${(busy / 1000).toFixed(0)} ms busy of ${(total / 1000).toFixed(0)} ms`);
  print(buckets, functions, (us) => `${((100 * us) / busy).toFixed(1)}%`, 'self time');
}
