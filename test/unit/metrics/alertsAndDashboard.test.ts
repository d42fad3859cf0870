import { describe, expect, it } from 'vitest';
import { describeMetrics } from '../../../src/observability/metrics/registry';
import { alertExpressions, dashboardExpressions, metricNamesIn, servedNames } from '../../helpers/promql';

// The SDK's own metrics (temporal_*) exist only once a worker runs: test/integration/workerMetrics.test.ts checks
// them against a real worker's scrape. Here: every other name against the registry the worker serves.
async function runnerNames(): Promise<Set<string>> {
  return servedNames(await describeMetrics().metrics());
}

describe('alert rules and dashboard refer only to metrics the worker serves', () => {
  it('reads metric names out of PromQL', () => {
    expect(metricNamesIn('sum by (site, path) (rate(sitechat_api_rate_limited_total{status=~"4..|none", x="a}b"}[5m])) > 0')).toEqual(['sitechat_api_rate_limited_total']);
    expect(metricNamesIn('histogram_quantile(0.95, sum by (le) (rate(a_bucket[$__rate_interval]))) / on(site) group_left b * 1e3')).toEqual(['a_bucket', 'b']);
  });

  it('every alert rule names only served metrics', async () => {
    const served = await runnerNames();
    const rules = alertExpressions();
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const { alert, expr } of rules) {
      const names = metricNamesIn(expr);
      expect(names.length, `${alert}: no metric in ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        if (name.startsWith('temporal_')) continue;
        expect(served.has(name), `${alert}: ${name} is not a metric the worker serves`).toBe(true);
      }
    }
  });

  it('every dashboard query names only served metrics, and every runner metric has a panel', async () => {
    const served = await runnerNames();
    const queries = dashboardExpressions();
    const used = new Set<string>();
    for (const { panel, expr } of queries) {
      const names = metricNamesIn(expr);
      expect(names.length, `${panel}: no metric in ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        used.add(name.replace(/_(bucket|sum|count)$/u, ''));
        if (name.startsWith('temporal_')) continue;
        expect(served.has(name), `${panel}: ${name} is not a metric the worker serves`).toBe(true);
      }
    }
    const runnerFamilies = [...served].filter((n) => n.startsWith('sitechat_') && !/_(bucket|sum|count)$/u.test(n));
    expect(runnerFamilies.length).toBeGreaterThanOrEqual(12);
    for (const family of runnerFamilies) expect(used.has(family), `${family} has no dashboard panel`).toBe(true);
  });
});
