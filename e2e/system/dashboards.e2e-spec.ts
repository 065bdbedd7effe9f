import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import {
  createTestDatabase, createTestTopics, dashboardExpressions, exposedFamilies, loadDashboards, promqlMetricNames, unexportedMetrics,
  REPO_ROOT, type Dashboard, type TestDatabase,
} from '@owd/testing';
import { SERVICES, Stack, type ServiceName } from './support/stack';

function queriedMetrics(dashboard: Dashboard): string[] {
  return [...new Set(dashboardExpressions(dashboard).flatMap(promqlMetricNames))].sort();
}

/** Rows of the alerting table in docs/operations.md: the metrics of the first column and the service of the second. */
function alertingTable(): { metrics: string[]; service: string }[] {
  const doc = readFileSync(resolve(REPO_ROOT, 'docs/operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Metrics worth alerting on'));
  const table = section.slice(0, section.indexOf('\n## ') === -1 ? undefined : section.indexOf('\n## '));
  return table.split('\n').filter((line) => line.startsWith('| `')).map((line) => {
    const [metrics, service] = line.split('|').slice(1, 3);
    return { metrics: [...metrics.matchAll(/`([a-z_:]+)(?:\{[^}]*\})?`/g)].map((m) => m[1]), service: service.trim() };
  });
}

/**
 * Every metric a dashboard in deploy/dashboards queries is exported by the service it belongs to, read from
 * GET /metrics of the built service (families are listed by `# TYPE` even before their first sample).
 */
describe('Grafana dashboards against the metrics the services export', () => {
  let db: TestDatabase;
  let stack: Stack;
  const exported = new Map<ServiceName, Map<string, string>>();
  const dashboards = loadDashboards();

  function families(service: ServiceName): Map<string, string> {
    const found = exported.get(service);
    if (!found) throw new Error(`no /metrics read from ${service}`);
    return found;
  }

  function dashboard(name: string): Dashboard {
    const found = dashboards.get(name);
    if (!found) throw new Error(`deploy/dashboards/${name}.json is missing`);
    return found;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const { prefix } = await createTestTopics();
    stack = new Stack(db.url, prefix);
    await stack.startAll();
    for (const service of SERVICES) {
      const res = await fetch(`${stack.url(service)}/metrics`);
      expect(res.status).toBe(200);
      exported.set(service, exposedFamilies(await res.text()));
    }
  }, 180_000);

  afterAll(async () => {
    await stack?.stopAll();
    await db?.drop();
  });

  it.each(SERVICES)('%s exports every metric its dashboard queries', (service) => {
    const queried = queriedMetrics(dashboard(service));
    expect(queried.length).toBeGreaterThan(0);
    expect(unexportedMetrics(queried, families(service))).toEqual([]);
  });

  it('finds every metric of the overview in at least one service', () => {
    const queried = queriedMetrics(dashboard('overview'));
    const missingEverywhere = queried.filter((name) => SERVICES.every((s) => unexportedMetrics([name], families(s)).length > 0));
    expect(missingEverywhere).toEqual([]);
  });

  it('exports every metric docs/operations.md tells operators to alert on, in the services it names', () => {
    const rows = alertingTable();
    expect(rows.length).toBeGreaterThan(5);
    for (const { metrics, service } of rows) {
      const services = service === 'all' ? [...SERVICES] : [service as ServiceName];
      expect(SERVICES).toEqual(expect.arrayContaining(services));
      for (const s of services) expect({ service: s, missing: unexportedMetrics(metrics, families(s)) }).toEqual({ service: s, missing: [] });
    }
  });

  it('exports every metric an alert of deploy/monitoring/prometheus-rules.yaml uses, in at least one service', () => {
    const rules = parse(readFileSync(resolve(REPO_ROOT, 'deploy/monitoring/prometheus-rules.yaml'), 'utf8')) as { spec: { groups: { rules: { expr: string }[] }[] } };
    const used = [...new Set(rules.spec.groups.flatMap((g) => g.rules).flatMap((r) => promqlMetricNames(r.expr)))].sort();
    expect(used).toEqual(expect.arrayContaining(['owd_consumer_lag', 'owd_deliveries_total', 'owd_retry_oldest_due_seconds', 'process_start_time_seconds']));
    expect(used.filter((name) => SERVICES.every((s) => unexportedMetrics([name], families(s)).length > 0))).toEqual([]);
  });

  it("tells one service's metrics from another's", () => {
    expect(unexportedMetrics(['owd_deliveries_total', 'owd_attempt_duration_seconds_bucket'], families('notifier')))
      .toEqual(['owd_deliveries_total', 'owd_attempt_duration_seconds_bucket']);
    expect(unexportedMetrics(['owd_notices_sent_total'], families('dispatcher'))).toEqual(['owd_notices_sent_total']);
  });
});
