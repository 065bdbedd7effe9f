import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { promqlMetricNames } from '@owd/testing';
import { REPO_ROOT } from './deploy-render';

type AlertRule = { alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
type RuleGroup = { name: string; rules: AlertRule[] };

const RULES = resolve(REPO_ROOT, 'deploy/monitoring/prometheus-rules.yaml');
const RULE_TESTS = resolve(REPO_ROOT, 'deploy/monitoring/prometheus-rules.test.yaml');
const OPERATIONS = resolve(REPO_ROOT, 'docs/operations.md');

/** Debian's prometheus package ships promtool; scripts/test.sh installs it (scripts/lib.sh ensure_promtool). */
function findPromtool(): { bin?: string; reason?: string } {
  const bin = process.env['PROMTOOL'] ?? 'promtool';
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0 ? { reason: `promtool not found (${bin}): install Debian's prometheus package or set PROMTOOL` } : { bin };
}

/** GitHub's anchor of a Markdown heading. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

describe('deploy/monitoring/prometheus-rules.yaml', () => {
  const groups = (parse(readFileSync(RULES, 'utf8')) as { spec: { groups: RuleGroup[] } }).spec.groups;
  const alerts = groups.flatMap((g) => g.rules);
  const doc = readFileSync(OPERATIONS, 'utf8');
  const promtool = findPromtool();
  // Said once, in the output, when the promtool checks cannot run here (never skipped silently).
  if (!promtool.bin) process.stderr.write(`deploy-alerts.spec.ts: promtool checks skipped: ${promtool.reason}\n`);
  const withPromtool = promtool.bin ? it : it.skip;

  it('alerts on everything docs/operations.md tells operators to alert on', () => {
    expect(alerts.map((a) => a.alert)).toEqual(expect.arrayContaining([
      'OwdConsumerLagHigh', 'OwdOutboxBacklogStale', 'OwdOutboxRelayFailing', 'OwdDeadLetterGrowing', 'OwdDeliveryFailureRatioHigh',
      'OwdRetriesOverdue', 'OwdRetriesDuePiling', 'OwdAddressRefused', 'OwdApiAddressRefusalsBurst', 'OwdServiceRestarting', 'OwdConsumerRestarting',
    ]));
    // Each row of the alerting table whose "alert when" is a condition has an alert on one of its metrics.
    const section = doc.slice(doc.indexOf('## Metrics worth alerting on'), doc.indexOf('\n## ', doc.indexOf('## Metrics worth alerting on') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `')).map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
    // A histogram is queried through its series: owd_event_handler_seconds_bucket is owd_event_handler_seconds.
    const alerted = new Set(alerts.flatMap((a) => promqlMetricNames(a.expr)).map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    const conditional = rows.filter(([, , , when]) => !/^(none|—)/.test(when));
    expect(conditional.length).toBeGreaterThan(8);
    for (const [metrics] of conditional) {
      const names = [...metrics.matchAll(/`([a-z_:]+)/g)].map((m) => m[1]);
      expect([metrics, names.some((n) => alerted.has(n))]).toEqual([metrics, true]);
    }
  });

  it.each(alerts.map((a) => [a.alert, a] as const))('%s has a severity, a summary, a description and a runbook in docs/operations.md', (_name, alert) => {
    expect(['critical', 'warning', 'info']).toContain(alert.labels?.['severity']);
    expect(alert.annotations?.['summary']).toBeTruthy();
    expect(alert.annotations?.['description']).toBeTruthy();
    expect(alert.annotations?.['runbook_url']).toBe(`docs/operations.md#${alert.alert.toLowerCase()}`);
    const headings = [...doc.matchAll(/^#{2,4} (.+)$/gm)].map((m) => anchor(m[1]));
    expect(headings).toContain(alert.alert.toLowerCase());
  });

  describe('with promtool', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'owd-rules-'));
      writeFileSync(join(dir, 'rules.yaml'), stringify({ groups }));
      copyFileSync(RULE_TESTS, join(dir, 'rules.test.yaml'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const run = (...args: string[]) => spawnSync(promtool.bin as string, args, { cwd: dir, encoding: 'utf8' });

    withPromtool('passes `promtool check rules` (PromQL syntax, templates, durations)', () => {
      const out = run('check', 'rules', 'rules.yaml');
      expect({ status: out.status, output: out.stdout + out.stderr }).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${alerts.length} rules found`) });
    });

    withPromtool('fires as deploy/monitoring/prometheus-rules.test.yaml expects (`promtool test rules`)', () => {
      const out = run('test', 'rules', 'rules.test.yaml');
      expect({ status: out.status, output: out.stdout + out.stderr }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
    });
  });
});
