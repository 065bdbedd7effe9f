import { readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { REPO_ROOT } from './infra';

export const DASHBOARD_DIR = resolve(REPO_ROOT, 'deploy/dashboards');

export interface DashboardTarget {
  refId?: string;
  expr?: string;
  datasource?: unknown;
}

export interface DashboardPanel {
  id?: number;
  type: string;
  title?: string;
  description?: string;
  gridPos?: { x: number; y: number; w: number; h: number };
  datasource?: unknown;
  targets?: DashboardTarget[];
  fieldConfig?: { defaults?: { unit?: string } };
  /** Panels of a collapsed row. */
  panels?: DashboardPanel[];
}

export interface DashboardVariable {
  name: string;
  type: string;
  query?: string | { query?: string };
  datasource?: unknown;
}

/** The parts of a Grafana dashboard JSON model the checks read. */
export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  tags?: string[];
  panels: DashboardPanel[];
  templating?: { list: DashboardVariable[] };
}

/** Every `deploy/dashboards/*.json`, by file name without `.json` (a service name, or `overview`). */
export function loadDashboards(dir = DASHBOARD_DIR): Map<string, Dashboard> {
  return new Map(readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) =>
    [basename(f, '.json'), JSON.parse(readFileSync(resolve(dir, f), 'utf8')) as Dashboard]));
}

/** Panels including those nested in collapsed rows. */
export function allPanels(dashboard: Dashboard): DashboardPanel[] {
  return dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
}

/** Every PromQL expression of the dashboard: panel targets and query variables. */
export function dashboardExpressions(dashboard: Dashboard): string[] {
  const targets = allPanels(dashboard).flatMap((p) => p.targets ?? []).flatMap((t) => (t.expr ? [t.expr] : []));
  const variables = (dashboard.templating?.list ?? []).filter((v) => v.type === 'query').flatMap((v) => {
    const query = typeof v.query === 'string' ? v.query : v.query?.query;
    return query ? [query] : [];
  });
  return [...targets, ...variables];
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan']);

/**
 * Metric names a PromQL expression (or a Grafana `label_values(selector, label)` query) selects:
 * identifiers that are neither functions, keywords, label names nor literals.
 */
export function promqlMetricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`/g, '""')
    .replace(/\$\{[^}]*\}|\$\w+/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\blabel_values\s*\(\s*([A-Za-z_:][\w:]*)?\s*,\s*[A-Za-z_]\w*\s*\)/g, ' $1 ')
    .replace(/\blabel_values\s*\(\s*[A-Za-z_]\w*\s*\)/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/\d[\w.]*|([A-Za-z_:][A-Za-z0-9_:]*)/g)) {
    const name = m[1];
    if (!name || KEYWORDS.has(name)) continue;
    const next = stripped.slice((m.index ?? 0) + m[0].length).trimStart();
    if (next.startsWith('(')) continue;
    names.add(name);
  }
  return [...names];
}

/** Metric families of a Prometheus text exposition (`# TYPE` lines: present even before a first sample). */
export function exposedFamilies(exposition: string): Map<string, string> {
  return new Map([...exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
}

/** The names an exposition does not export; `_bucket`/`_sum`/`_count` resolve to their histogram or summary. */
export function unexportedMetrics(names: Iterable<string>, families: Map<string, string>): string[] {
  return [...names].filter((name) => {
    if (families.has(name)) return false;
    const series = /^(.+)_(bucket|sum|count)$/.exec(name);
    if (!series) return true;
    const type = families.get(series[1]);
    return !(type === 'histogram' || (type === 'summary' && series[2] !== 'bucket'));
  });
}
