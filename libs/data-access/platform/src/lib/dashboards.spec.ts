import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { allPanels, DASHBOARD_DIR, dashboardExpressions, loadDashboards, promqlMetricNames, type DashboardPanel } from '@owd/testing';

const root = resolve(__dirname, '../../../../..');
const SERVICES = ['manifest-api', 'payload-builder', 'dispatcher', 'retry-scheduler', 'notifier'];
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

type Kustomization = { resources?: string[]; generatorOptions?: { labels?: Record<string, string> }; configMapGenerator?: { name: string; files: string[] }[] };

function kustomization(dir: string): Kustomization {
  return parse(readFileSync(resolve(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
}

type Grid = NonNullable<DashboardPanel['gridPos']>;

function grid(panel: DashboardPanel): Grid {
  if (!panel.gridPos) throw new Error(`panel ${panel.id} "${panel.title}" has no gridPos`);
  return panel.gridPos;
}

function overlaps(p: Grid, q: Grid): boolean {
  return p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
}

/** deploy/dashboards: one importable Grafana dashboard per service (and an overview), shipped as ConfigMaps. */
describe('deploy/dashboards', () => {
  const dashboards = loadDashboards();

  it('has a dashboard for every service, and an overview', () => {
    expect([...dashboards.keys()].sort()).toEqual([...SERVICES, 'overview'].sort());
  });

  it('gives every dashboard its own uid and title', () => {
    const all = [...dashboards.values()];
    expect(new Set(all.map((d) => d.uid)).size).toBe(all.length);
    expect(new Set(all.map((d) => d.title)).size).toBe(all.length);
    for (const d of all) expect(d.uid.length).toBeLessThanOrEqual(40);
  });

  describe.each([...dashboards.entries()])('%s.json', (_name, dashboard) => {
    const panels = allPanels(dashboard);

    it('is a Grafana JSON model with a Prometheus data source variable that every panel and query uses', () => {
      expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
      const variables = dashboard.templating?.list ?? [];
      expect(variables.find((v) => v.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
      for (const v of variables.filter((x) => x.type === 'query')) expect(v.datasource).toEqual(DATASOURCE);
      for (const panel of panels.filter((p) => p.type !== 'row')) {
        expect(panel.datasource).toEqual(DATASOURCE);
        for (const target of panel.targets ?? []) expect(target.datasource).toEqual(DATASOURCE);
      }
    });

    it('lays panels out on the 24-column grid with unique ids and without overlaps', () => {
      expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
      for (const p of panels) expect(grid(p).x + grid(p).w).toBeLessThanOrEqual(24);
      for (const [i, a] of panels.entries()) for (const b of panels.slice(i + 1)) expect(overlaps(grid(a), grid(b))).toBe(false);
    });

    it('titles, describes and sets a unit on every panel, and names each query with its own refId', () => {
      for (const panel of panels.filter((p) => p.type !== 'row')) {
        expect(panel.title).toBeTruthy();
        expect(panel.description).toBeTruthy();
        expect(panel.fieldConfig?.defaults?.unit).toBeTruthy();
        const targets = panel.targets ?? [];
        expect(targets.length).toBeGreaterThan(0);
        for (const t of targets) expect(t.expr).toBeTruthy();
        expect(new Set(targets.map((t) => t.refId)).size).toBe(targets.length);
      }
    });

    it('takes rate() and increase() of counters and histogram series only, and quantiles from buckets grouped by le', () => {
      for (const expr of dashboardExpressions(dashboard)) {
        for (const m of expr.matchAll(/\b(?:rate|irate|increase)\(\s*([A-Za-z_:][\w:]*)/g)) expect(m[1]).toMatch(/_(total|bucket|sum|count)$/);
        for (const m of expr.matchAll(/histogram_quantile\(\s*[\d.]+\s*,\s*sum by \(([^)]*)\)\s*\(rate\(([\w:]+)/g)) {
          expect(m[1].split(',').map((l) => l.trim())).toContain('le');
          expect(m[2]).toMatch(/_bucket$/);
        }
      }
    });
  });

  it.each(SERVICES)('restricts every query of %s.json to that service', (service) => {
    const dashboard = dashboards.get(service);
    expect(dashboard).toBeDefined();
    for (const expr of dashboard ? dashboardExpressions(dashboard) : []) {
      const names = promqlMetricNames(expr);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        for (const m of expr.matchAll(new RegExp(`\\b${name}\\b(\\{[^}]*\\})?`, 'g'))) expect(m[1] ?? '').toContain(`service="${service}"`);
      }
    }
  });

  it('ships every dashboard as a ConfigMap labelled for the Grafana sidecar, and both overlays include them', () => {
    const k = kustomization(DASHBOARD_DIR);
    expect(k.generatorOptions?.labels).toMatchObject({ grafana_dashboard: '1' });
    const files = (k.configMapGenerator ?? []).flatMap((g) => g.files).sort();
    expect(files).toEqual([...dashboards.keys()].map((name) => `${name}.json`).sort());
    for (const overlay of ['local', 'production']) {
      expect(kustomization(resolve(root, 'deploy/overlays', overlay)).resources).toContain('../../dashboards');
    }
  });
});
