// Side by side: two copies of what a scenario runs, at the same time on the same machine, one of them another build
// (BENCH_AGAINST: a folder of bundles inside the repository, e.g. a copy of dist/apps made before a change, so they
// find its node_modules), other settings (BENCH_AGAINST_ENV: `NAME=value NAME="a b" …`, for that side only) and/or
// another Node.js (BENCH_AGAINST_NODE: its binary, e.g. a release the image may move to).
// Both share the cores at every moment, so the ratio of their CPU per unit of work does not move with how busy the
// host is from one run to the next, as two runs one after the other do (docs/performance.md, thirty-sixth round).
import { nodeVersionOf } from './output';

/**
 * The other side: its bundles (this build's when undefined), its settings, its Node.js binary (the bench's service
 * Node.js when undefined) and the name it is printed under.
 */
export interface Against {
  bundles: string | undefined;
  env: Record<string, string>;
  node?: string;
  label: string;
}

/** One setting: NAME=value, NAME="a value with spaces" or NAME='another'. */
const SETTING = /^([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|'([^']*)'|([^\s"']*))(?:\s+|$)/;

/** `NAME=value …` as a record; a value with spaces in quotes. */
export function parseSettings(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  let rest = text.trim();
  while (rest !== '') {
    const match = SETTING.exec(rest);
    if (!match) throw new Error(`BENCH_AGAINST_ENV: "${rest}" does not start with NAME=value (quote a value with spaces)`);
    settings[match[1]] = match[2] ?? match[3] ?? match[4];
    rest = rest.slice(match[0].length);
  }
  return settings;
}

/** The side BENCH_AGAINST, BENCH_AGAINST_ENV and BENCH_AGAINST_NODE describe, or undefined when none is set. */
export function againstFromEnv(env: NodeJS.ProcessEnv = process.env): Against | undefined {
  const bundles = env['BENCH_AGAINST'] || undefined;
  const settings = parseSettings(env['BENCH_AGAINST_ENV'] ?? '');
  const node = env['BENCH_AGAINST_NODE'] || undefined;
  if (bundles === undefined && node === undefined && Object.keys(settings).length === 0) return undefined;
  const version = node === undefined ? [] : [`Node.js ${nodeVersionOf(node)}`];
  const label = [bundles ?? 'this build', ...version, ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)].join(', ');
  return { bundles, env: settings, ...(node === undefined ? {} : { node }), label };
}
