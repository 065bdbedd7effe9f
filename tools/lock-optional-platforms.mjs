// Records in package-lock.json the platform-specific optional packages that the registry
// reachable here does not serve (npm drops them from the lock, and `npm ci` then refuses the lock).
// npm skips an optional package it cannot fetch, so listing them keeps `npm ci` working everywhere.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${path ? path + '/' : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (pkgs[nested] || pkgs[hoisted]) continue;
    pkgs[hoisted] = { version, optional: true, ...(meta.dev ? { dev: true } : {}) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`lock-optional-platforms: ${added} optional platform packages recorded`);
