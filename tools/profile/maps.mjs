// The hidden classes (V8 "maps") a running service makes, and where: a check that objects made per request or per
// message share their shapes. Run the services with V8's map log, e.g. beside a bench run
//   BENCH_NODE_ARGS="--log-maps --no-log-maps-details --logfile=/tmp/maps/%p.log --no-logfile-per-isolate"
// (add --log-code for the functions' names; it can change what V8 does, so take the counts from a run without it), then
//   node tools/profile/maps.mjs <dir or .log file> [FROM_SECONDS] [TO_SECONDS] [top, default 12]
// For each process (named by the first dist/apps/<service>/main.js its log mentions): the maps made between FROM and TO
// seconds after it started, per second, by V8's reason ("Transition" is a property added along a known path and shared;
// "Normalize…", "TransitionToPrototype", "CopyAsPrototype", "DeletingProperty" make maps of their own), and the
// functions that made them (resolved from the log's code events, with --log-code; "?" for code V8 did not log, such as Node.js' own
// modules from its snapshot). Compare the rate with the deliveries a second of the same window: a count that grows with
// the rate is made per request or message.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [target = '/tmp/maps', fromArg = '0', toArg = 'Infinity', topArg = '12'] = process.argv.slice(2);
const from = Number(fromArg) * 1e6;
const to = Number(toArg) * 1e6;
const top = Number(topArg);
const files = statSync(target).isDirectory()
  ? readdirSync(target).filter((f) => f.endsWith('.log')).map((f) => join(target, f))
  : [target];

/** Code objects by start address, to name the function a map event's pc lies in. */
class CodeIndex {
  starts = [];
  codes = [];

  add(start, size, name) {
    this.starts.push(start);
    this.codes.push({ start, end: start + size, name });
  }

  /** By start address; the sort is stable, so of two codes at one address the one logged later stays later. */
  sort() {
    this.codes.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    this.starts = this.codes.map((c) => c.start);
  }

  /** The last code object starting at or below `pc` that still holds it (code logged later wins a reused address). */
  nameOf(pc) {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= pc) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (let i = found; i >= 0 && i > found - 8; i--) if (pc < this.codes[i].end) return this.codes[i].name;
    return '?';
  }
}

const short = (name) => name.replace(/\/\S*\/(node_modules\/[^/]+|dist\/apps\/[^/]+)\//, '$1/').replace(/,0x[0-9a-f]+,.*$/, '');

for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const service = lines.map((l) => /dist\/apps\/([a-z-]+)\/main\.js/.exec(l)?.[1]).find(Boolean) ?? file;
  const code = new CodeIndex();
  const events = [];
  let first = Infinity;
  let last = 0;
  for (const line of lines) {
    if (line.startsWith('code-creation,')) {
      const f = line.split(',');
      code.add(BigInt(f[4]), BigInt(f[5]), f.slice(6).join(','));
    } else if (line.startsWith('map,')) {
      // map,<kind>,<time µs>,<from>,<to>,<pc>,<line>,<column>,<reason>,<property>
      const f = line.split(',');
      const time = Number(f[2]);
      first = Math.min(first, time);
      last = Math.max(last, time);
      if (time >= from && time < to) events.push({ kind: f[1], pc: f[5], line: f[6], column: f[7], reason: f[8] || f[1], property: f[9] ?? '' });
    }
  }
  code.sort();
  const seconds = (Math.min(to, last) - Math.max(from, first)) / 1e6;
  if (!(seconds > 0)) {
    console.log(`\n${service} (${file}): no map events between ${fromArg} and ${toArg} s (its log runs from ${(first / 1e6).toFixed(1)} to ${(last / 1e6).toFixed(1)} s)`);
    continue;
  }
  const byReason = new Map();
  const bySite = new Map();
  for (const e of events) {
    byReason.set(e.reason, (byReason.get(e.reason) ?? 0) + 1);
    if (e.kind === 'Transition') continue; // shared: made once, then followed
    const site = `${e.reason} · ${short(code.nameOf(BigInt(e.pc)))} (${e.line}:${e.column})${e.property ? ` · ${e.property}` : ''}`;
    bySite.set(site, (bySite.get(site) ?? 0) + 1);
  }
  const rate = (n) => (n / seconds).toFixed(1).padStart(8);
  console.log(`\n${service} (${file}): ${events.length} maps made in ${seconds.toFixed(1)} s of the window (log from ${(first / 1e6).toFixed(1)} to ${(last / 1e6).toFixed(1)} s)`);
  console.log('  by reason, per second:');
  for (const [reason, n] of [...byReason].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${rate(n)}  ${reason}`);
  console.log('  maps of their own (not "Transition"), per second, by reason · function (line:column) · property:');
  for (const [site, n] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${rate(n)}  ${site}`);
}
