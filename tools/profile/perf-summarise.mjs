// Where the machine's CPU went in a perf-machine.sh recording: each process's share of the machine, and within a
// Node.js process what its samples were doing, by the frame on top of the stack (main thread) or the job a V8
// background thread ran:
//   node tools/profile/perf-summarise.mjs DIR [PROCESSES]
// PROCESSES (default 8): how many processes to break down. PostgreSQL's backends and the broker's threads are each
// summed as one process.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [dir, processesArg = '8'] = process.argv.slice(2);
if (!dir) throw new Error('usage: perf-summarise.mjs DIR [PROCESSES]');

/** A readable name for each pid running when the recording started: the service, postgres, kafka, or the command. */
function processNames() {
  const names = new Map();
  for (const line of readFileSync(join(dir, 'processes.txt'), 'utf8').split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, args] = match;
    const service = /dist\/apps\/([\w-]+)\/main\.js/.exec(args);
    names.set(pid, service ? service[1] : /^postgres/.test(args) ? 'postgres' : /kafka\.Kafka/.test(args) ? 'kafka' : args.split(/\s+/)[0].split('/').pop());
  }
  return names;
}

/** What a main-thread sample was doing, read from its top frames. */
function mainCategory(frames) {
  const leaf = frames[0] ?? '';
  const stack = frames.join(' | ');
  if (/Heap::CollectGarbage|ScavengerCollector|MarkCompactCollector|Heap::Scavenge|IncrementalMarking::Step/.test(stack)) return 'GC on the main thread';
  if (/Runtime_CompileLazy|Compiler::Compile(?!r)|Runtime_CompileOptimized|BaselineBatchCompiler|v8::internal::Parser::Parse/.test(stack)) return 'compiling on the main thread';
  if (/Json(Parser|Stringifier)/.test(leaf)) return 'JSON parse and stringify';
  if (leaf.startsWith('JS:*')) return 'JavaScript, optimized (TurboFan)';
  if (leaf.startsWith('JS:^') || leaf.startsWith('JS:+')) return 'JavaScript, baseline (Sparkplug, Maglev)';
  if (leaf.startsWith('JS:~')) return 'JavaScript, interpreted';
  if (/^Builtins_.*(Bytecode|Interpreter)|^Builtins_.*Handler$/.test(leaf)) return 'interpreter';
  if (/^Builtins_.*IC|^Builtins_.*Megamorphic/.test(leaf)) return 'V8 builtins: property access (inline caches)';
  if (leaf.startsWith('Builtins_')) return 'V8 builtins: other (calls, promises, strings, objects)';
  if (/^v8::|Runtime_/.test(leaf)) return 'V8 runtime (C++)';
  if (/^node::|^uv_|^uv__|llhttp|nghttp|^ssl|^EVP_|sha256/.test(leaf)) return 'Node.js and libuv (C++), http parser, crypto';
  if (/malloc|free|memcpy|memmove|memset|^_int_/.test(leaf)) return 'malloc and memory copies';
  if (/^\[unknown\]$/.test(leaf)) return 'unknown frames';
  return 'kernel and other native code';
}

/** What a background thread's sample was doing. */
function backgroundCategory(frames) {
  const stack = frames.join(' | ');
  if (/OptimizingCompileDispatcher|compiler::|Maglev|maglev/.test(stack)) return 'background: optimizing compiler (TurboFan)';
  if (/Concurrent(Marking|Scaveng)|Sweeper|Scavenger|MarkCompact|ArrayBufferSweeper|Heap::/.test(stack)) return 'background: GC (concurrent marking, parallel scavenge, sweeping)';
  return 'background: other (libuv pool, platform)';
}

const NOT_NODE = new Set(['postgres', 'kafka', 'java']);
const names = processNames();
const byProcess = new Map(); // name -> { pids:Set, samples, categories: Map }
let total = 0;
let idle = 0;

function add(comm, pid, tid, frames) {
  total += 1;
  if (pid === '0') { idle += 1; return; }
  // A process started after the recording began (a new PostgreSQL backend, say) is named by its command.
  const name = names.get(pid) ?? (comm === 'postgres' ? 'postgres' : comm);
  let entry = byProcess.get(name);
  if (!entry) byProcess.set(name, (entry = { pids: new Set(), samples: 0, categories: new Map() }));
  entry.pids.add(pid);
  entry.samples += 1;
  // Only Node.js processes are broken down: a JVM's or PostgreSQL's threads mean other things.
  const category = NOT_NODE.has(name) ? 'all' : pid === tid ? mainCategory(frames) : backgroundCategory(frames);
  entry.categories.set(category, (entry.categories.get(category) ?? 0) + 1);
}

const perf = spawn('perf', ['script', '--input', join(dir, 'perf.data'), '--fields', 'comm,pid,tid,ip,sym'], { stdio: ['ignore', 'pipe', 'ignore'] });
let current;
for await (const line of createInterface({ input: perf.stdout })) {
  if (!line.trim()) {
    if (current) add(...current);
    current = undefined;
  } else if (!/^\s/.test(line)) {
    const [, comm, pid, tid] = /^(.*?)\s+(\d+)\/(\d+)\s*$/.exec(line) ?? [];
    current = [comm, pid, tid, []];
  } else if (current) {
    current[3].push(line.trim().replace(/^[0-9a-f]+ /, '').replace(/ \(.*\)$/, ''));
  }
}
if (current) add(...current);

const pct = (n, of) => `${((100 * n) / of).toFixed(1).padStart(5)} %`;
console.log(`${total} samples on all cores; idle ${pct(idle, total)}`);
const ranked = [...byProcess].sort((a, b) => b[1].samples - a[1].samples);
for (const [name, { pids, samples, categories }] of ranked.slice(0, Number(processesArg))) {
  console.log(`\n${name} (${pids.size === 1 ? `pid ${[...pids][0]}` : `${pids.size} processes`}): ${pct(samples, total)} of the machine`);
  for (const [category, n] of [...categories].sort((a, b) => b[1] - a[1])) {
    if (category !== 'all' && n / samples >= 0.01) console.log(`  ${pct(n, samples)}  ${category}`);
  }
}
