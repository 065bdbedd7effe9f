// Where a running service allocates, for `docs/performance.md`: preload it like cpu-profile.cjs,
//   NODE_OPTIONS="--require ./tools/profile/alloc-profile.cjs" PROFILE_SECONDS=20 PROFILE_DIR=/tmp/alloc <command>
// PROFILE_START_SECONDS (default 0) delays the start. V8's sampling heap profiler runs with the objects young and
// old collections freed kept in (so it counts what was allocated, not what is still alive), one sample per 16 KiB
// on average. Every Node process started under it writes <service>-<pid>.heapprofile after PROFILE_SECONDS, with
// <service>-<pid>.events.json: the events it published meanwhile (owd_outbox_published_total), so the bytes can
// be read per event. PROFILE_SURVIVORS=1 drops the objects young collections freed and keeps the rest: what lived
// through the young generation, which is what the old generation fills with and full collections free. Summarise with
//   node tools/profile/summarise.mjs /tmp/alloc
const { Session } = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const seconds = Number(process.env.PROFILE_SECONDS ?? 30);
const startAfter = Number(process.env.PROFILE_START_SECONDS ?? 0);
const dir = process.env.PROFILE_DIR ?? 'profiles';
const name = basename(dirname(process.argv[1] ?? 'node')) || 'node';
const survivorsOnly = process.env.PROFILE_SURVIVORS === '1';

/** The process's owd_outbox_published_total, summed over its labels (0 where it has no such counter). */
async function published() {
  try {
    const metric = require('prom-client').register.getSingleMetric('owd_outbox_published_total');
    const { values } = metric ? await metric.get() : { values: [] };
    return values.reduce((sum, v) => sum + v.value, 0);
  } catch {
    return 0;
  }
}

const session = new Session();
session.connect();
const start = async () => {
  const before = await published();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !survivorsOnly,
  }, () => {
    setTimeout(() => session.post('HeapProfiler.stopSampling', async (err, result) => {
      if (err) return;
      const events = (await published()) - before;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${name}-${process.pid}.heapprofile`), JSON.stringify(result.profile));
      writeFileSync(join(dir, `${name}-${process.pid}.events.json`), JSON.stringify({ published: events, seconds, survivorsOnly }));
    }), seconds * 1000).unref();
  });
};
if (startAfter > 0) setTimeout(start, startAfter * 1000).unref();
else void start();
