// deploy/monitoring: the alerting rules pass `promtool check rules` and their unit tests,
// the Grafana dashboard is well-formed and every PromQL expression in it parses (promtool
// checks them as recording rules), and both name only series the services export.
import { describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MESSAGES } from '@skiptrace/contracts';
import { metricsRegistry } from '@skiptrace/runtime';
import { stringify } from 'yaml';
import { loadYaml, root } from './infra-files.ts';

const dir = join(root, 'deploy', 'monitoring');
execFileSync('bash', [join(root, 'scripts', 'ensure-prometheus.sh')], { stdio: 'inherit' });

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { refId: string; expr: string }[];
  datasource?: { uid: string };
}
const dashboard = JSON.parse(readFileSync(join(dir, 'grafana-dashboard.json'), 'utf8')) as {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string }[] };
};
const alerts = loadYaml<{ groups: { rules: { alert: string; expr: string; annotations: { runbook: string } }[] }[] }>(
  'deploy/monitoring/alerts.yaml',
);
const rules = alerts.groups.flatMap((g) => g.rules);

const promtool = (...args: string[]) => spawnSync('promtool', args, { cwd: dir, encoding: 'utf8' });

/** skiptrace_* names an expression uses, without histogram suffixes. */
const seriesIn = (expr: string) =>
  [...expr.matchAll(/\bskiptrace_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, ''));

describe('alerting rules', () => {
  it('pass promtool check rules and promtool test rules', () => {
    const check = promtool('check', 'rules', 'alerts.yaml');
    expect(check.stdout + check.stderr).toContain('SUCCESS');
    expect(check.status).toBe(0);
    const test = promtool('test', 'rules', 'alerts.test.yaml');
    expect(test.stdout + test.stderr).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it('cover the failure modes operators are paged for, each with a runbook entry', () => {
    const names = rules.map((r) => r.alert);
    for (const alert of [
      'SkiptraceHighErrorRatio',
      'SkiptraceHighLatencyP99',
      'SkiptraceQueueGrowing',
      'SkiptraceDeadLetters',
      'SkiptraceWebhookEndpointDisabled',
      'SkiptraceNoWorkerConsuming',
    ])
      expect(names).toContain(alert);
    const doc = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    for (const r of rules) {
      expect(r.annotations.runbook).toBe(`docs/operations.md#${r.alert.toLowerCase()}`);
      expect({ alert: r.alert, documented: doc.includes(`#### ${r.alert}\n`) }).toEqual({
        alert: r.alert,
        documented: true,
      });
    }
  });

  it('page when any queue of the message catalogue has no consumer, and name only those queues', () => {
    const expr = rules.find((r) => r.alert === 'SkiptraceNoWorkerConsuming')!.expr;
    const queues = [...new Set(Object.values(MESSAGES).map((entry) => entry.queue))].sort();
    const absent = [...expr.matchAll(/absent\(skiptrace_bus_consumers\{queue="([^"]+)"\}\)/g)].map((m) => m[1]);
    expect(absent.sort()).toEqual(queues);
    const pattern = /queue=~"([^"]+)"/
      .exec(expr)?.[1]
      ?.split('|')
      .map((q) => q.replaceAll('\\', ''));
    expect(pattern?.sort()).toEqual(queues);
  });
});

describe('Grafana dashboard', () => {
  it('is a well-formed dashboard: unique panel ids, inside the 24-column grid, a Prometheus data source variable', () => {
    expect(dashboard.uid).toBe('skiptrace-overview');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(30);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
      if (p.type !== 'row') {
        expect({ title: p.title, targets: (p.targets ?? []).length > 0 }).toEqual({ title: p.title, targets: true });
        expect(p.datasource?.uid).toBe('${datasource}');
      }
    }
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'job']);
  });

  it('has only PromQL that parses (checked by promtool as recording rules)', () => {
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ p, t })));
    const file = join(mkdtempSync(join(tmpdir(), 'dashboard-')), 'dashboard-rules.yaml');
    const group = exprs.map(({ p, t }) => ({
      record: `dashboard:panel_${p.id}_${t.refId}`,
      // Grafana's variables, as Grafana would substitute them.
      expr: t.expr.replaceAll('$__rate_interval', '2m').replaceAll('$job', '.*'),
    }));
    writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules: group }] }));
    const check = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toContain(`SUCCESS: ${group.length} rules found`);
  });

  it('and the alerts name only skiptrace_* series the services export', async () => {
    const exported = new Set((await metricsRegistry.getMetricsAsJSON()).map((m) => m.name));
    const used = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => seriesIn(t.expr))),
      ...rules.flatMap((r) => seriesIn(r.expr)),
    ];
    expect(used.length).toBeGreaterThan(10);
    for (const name of new Set(used)) expect({ name, exported: exported.has(name) }).toEqual({ name, exported: true });
  });
});
