// CPU profile of a running service, for `docs/performance.md`: preload it with
//   NODE_OPTIONS="--require ./tools/profile/cpu-profile.cjs" PROFILE_SECONDS=40 PROFILE_DIR=/tmp/prof <command>
// PROFILE_START_SECONDS (default 0) delays the start, to leave out start-up and warm-up.
// Every Node process started under it writes <service>-<pid>.cpuprofile after PROFILE_SECONDS (services
// stop by signal, so `--cpu-prof`, which writes at a clean exit only, would not). Summarise the files with
//   node tools/profile/summarise.mjs /tmp/prof
const { Session } = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const seconds = Number(process.env.PROFILE_SECONDS ?? 30);
const startAfter = Number(process.env.PROFILE_START_SECONDS ?? 0);
const dir = process.env.PROFILE_DIR ?? 'profiles';
const name = basename(dirname(process.argv[1] ?? 'node')) || 'node';
const session = new Session();
session.connect();
const start = () => session.post('Profiler.enable', () => session.post('Profiler.start', () => {
  setTimeout(() => session.post('Profiler.stop', (err, result) => {
    if (err) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  }), seconds * 1000).unref();
}));
if (startAfter > 0) setTimeout(start, startAfter * 1000).unref();
else start();
