// Builds @owd/receiver (ESM + CJS bundles, the CLI, type declarations) and packs it with npm pack.
//   node libs/receiver/scripts/pack.mjs [destination directory]   -> prints the tarball's path
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, 'dist');
const destination = resolve(process.argv[2] ?? dist);

rmSync(dist, { recursive: true, force: true });
// Zero runtime dependencies: only node: built-ins may stay external.
const common = { bundle: true, platform: 'node', target: 'node18', packages: 'bundle', external: ['node:*'], logLevel: 'warning' };
await build({ ...common, entryPoints: [resolve(root, 'src/index.ts')], format: 'esm', outfile: resolve(dist, 'index.mjs') });
await build({ ...common, entryPoints: [resolve(root, 'src/index.ts')], format: 'cjs', outfile: resolve(dist, 'index.cjs') });
await build({ ...common, entryPoints: [resolve(root, 'src/cli.ts')], format: 'cjs', outfile: resolve(dist, 'cli.cjs') });
execFileSync(process.execPath, [resolve(root, '../../node_modules/typescript/bin/tsc'), '-p', resolve(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});

mkdirSync(destination, { recursive: true });
const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: root, encoding: 'utf8' });
const [{ filename }] = JSON.parse(out);
console.log(resolve(destination, filename));
