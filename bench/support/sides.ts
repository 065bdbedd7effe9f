// Side by side: two copies of what a scenario runs, at the same time on the same machine, one of them another build
// (BENCH_AGAINST: a folder of bundles inside the repository, e.g. a copy of dist/apps made before a change, so they
// find its node_modules) and/or other settings (BENCH_AGAINST_ENV: `NAME=value NAME="a b" …`, for that side only).
// Both share the cores at every moment, so the ratio of their CPU per unit of work does not move with how busy the
// host is from one run to the next, as two runs one after the other do (docs/performance.md, thirty-sixth round).
/** The other side: its bundles (this build's when undefined), its settings and the name it is printed under. */
export interface Against {
  bundles: string | undefined;
  env: Record<string, string>;
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

/** The side BENCH_AGAINST and BENCH_AGAINST_ENV describe, or undefined when neither is set. */
export function againstFromEnv(env: NodeJS.ProcessEnv = process.env): Against | undefined {
  const bundles = env['BENCH_AGAINST'] || undefined;
  const settings = parseSettings(env['BENCH_AGAINST_ENV'] ?? '');
  if (bundles === undefined && Object.keys(settings).length === 0) return undefined;
  const label = [bundles ?? 'this build', ...Object.entries(settings).map(([k, v]) => `${k}=${v}`)].join(', ');
  return { bundles, env: settings, label };
}
