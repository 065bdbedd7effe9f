import { dashboardExpressions, exposedFamilies, promqlMetricNames, unexportedMetrics, type Dashboard } from './dashboards';

const EXPOSITION = `# HELP owd_deliveries_total Delivery attempts by outcome
# TYPE owd_deliveries_total counter
# HELP owd_attempt_duration_seconds Duration of one delivery attempt
# TYPE owd_attempt_duration_seconds histogram
owd_attempt_duration_seconds_bucket{le="0.1",outcome="delivered",service="dispatcher"} 1
# HELP nodejs_gc_duration_seconds Garbage collection duration
# TYPE nodejs_gc_duration_seconds summary
# HELP owd_dispatch_in_flight Delivery attempts in flight
# TYPE owd_dispatch_in_flight gauge
owd_dispatch_in_flight{service="dispatcher"} 0
`;

describe('promqlMetricNames', () => {
  it('finds the selected metrics and skips functions, aggregations, grouping labels and literals', () => {
    const expr = 'histogram_quantile(0.99, sum by (le, outcome) (rate(owd_attempt_duration_seconds_bucket{service="dispatcher", outcome!~"refused|conflict"}[$__rate_interval])))';
    expect(promqlMetricNames(expr)).toEqual(['owd_attempt_duration_seconds_bucket']);
  });

  it('reads both sides of binary operations, with on/ignoring/group_left clauses and scalars', () => {
    const expr = 'sum(rate(owd_deliveries_total{outcome="delivered"}[5m])) / on (service) group_left sum(rate(owd_deliveries_total[5m])) * 100 > bool 0.5e1 or vector(0) unless max(owd_dispatch_in_flight offset 1h)';
    expect(promqlMetricNames(expr).sort()).toEqual(['owd_deliveries_total', 'owd_dispatch_in_flight']);
  });

  it('ignores words inside label values and Grafana variables', () => {
    expect(promqlMetricNames('max(owd_outbox_backlog{namespace=~"$namespace", pod=~"${pod:regex}", topic="sum rate"})')).toEqual(['owd_outbox_backlog']);
  });

  it('takes the metric of a Grafana label_values query, not its label', () => {
    expect(promqlMetricNames('label_values(owd_outbox_backlog{service="notifier"}, namespace)')).toEqual(['owd_outbox_backlog']);
    expect(promqlMetricNames('label_values(namespace)')).toEqual([]);
  });
});

describe('unexportedMetrics', () => {
  const families = exposedFamilies(EXPOSITION);

  it('reads every family from its # TYPE line, also those without a sample yet', () => {
    expect([...families.keys()]).toEqual(['owd_deliveries_total', 'owd_attempt_duration_seconds', 'nodejs_gc_duration_seconds', 'owd_dispatch_in_flight']);
  });

  it('accepts exported names and the _bucket/_sum/_count series of a histogram, and _sum/_count of a summary', () => {
    expect(unexportedMetrics([
      'owd_deliveries_total', 'owd_dispatch_in_flight', 'owd_attempt_duration_seconds_bucket', 'owd_attempt_duration_seconds_count',
      'owd_attempt_duration_seconds_sum', 'nodejs_gc_duration_seconds_sum', 'nodejs_gc_duration_seconds',
    ], families)).toEqual([]);
  });

  it('reports names the exposition lacks, a series suffix on a counter, and buckets of a summary', () => {
    expect(unexportedMetrics([
      'owd_notices_sent_total', 'owd_deliveries', 'owd_deliveries_total_count', 'nodejs_gc_duration_seconds_bucket', 'owd_dispatch_in_flight_sum',
    ], families)).toEqual([
      'owd_notices_sent_total', 'owd_deliveries', 'owd_deliveries_total_count', 'nodejs_gc_duration_seconds_bucket', 'owd_dispatch_in_flight_sum',
    ]);
  });
});

describe('dashboardExpressions', () => {
  it('collects the targets of panels, of panels inside collapsed rows, and of query variables', () => {
    const dashboard: Dashboard = {
      uid: 'x', title: 'x', schemaVersion: 39,
      panels: [
        { type: 'timeseries', targets: [{ refId: 'A', expr: 'a_total' }, { refId: 'B', expr: 'b_total' }] },
        { type: 'row', panels: [{ type: 'stat', targets: [{ refId: 'A', expr: 'c' }] }] },
        { type: 'text' },
      ],
      templating: { list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus' },
        { name: 'namespace', type: 'query', query: { query: 'label_values(d, namespace)' } },
        { name: 'pod', type: 'query', query: 'label_values(e, pod)' },
      ] },
    };
    expect(dashboardExpressions(dashboard)).toEqual(['a_total', 'b_total', 'c', 'label_values(d, namespace)', 'label_values(e, pod)']);
  });
});
