import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');
export const ALERTS_FILE = join(ROOT, 'deploy', 'prometheus', 'alerts.yml');
export const DASHBOARD_FILE = join(ROOT, 'deploy', 'grafana', 'sitechat-runner.json');

/** PromQL words that look like metric names: grouping and set operators, modifiers. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects: identifiers outside strings, label matchers, ranges and grouping
 * clauses that are not functions (followed by `(`) or keywords. Enough for the expressions this repository ships;
 * a name it cannot see past makes the tests fail, never pass.
 */
export function metricNamesIn(expr: string): string[] {
  const s = expr
    .replace(/"(?:[^"\\]|\\.)*"/gu, '""')
    .replace(/\{[^}]*\}/gu, '')
    .replace(/\[[^\]]*\]/gu, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gu, '');
  const names = new Set<string>();
  for (const m of s.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/gu)) {
    const before = s[m.index - 1] ?? '';
    if (/[0-9.]/u.test(before)) continue; // the exponent of a number (1e3)
    if (s.slice(m.index + m[0].length).trimStart().startsWith('(')) continue;
    if (!KEYWORDS.has(m[0].toLowerCase())) names.add(m[0]);
  }
  return [...names];
}

/** Every `expr` of the Prometheus rules file, with the alert's name. */
export function alertExpressions(file = ALERTS_FILE): { alert: string; expr: string }[] {
  const doc = parse(readFileSync(file, 'utf8')) as { groups: { rules: { alert?: string; record?: string; expr: string }[] }[] };
  return doc.groups.flatMap((g) => g.rules.map((r) => ({ alert: r.alert ?? r.record ?? '?', expr: String(r.expr) })));
}

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
  templating?: { list: { name: string; definition?: string }[] };
}

/** Every query of the Grafana dashboard: panel targets, and the metric of each `label_values(metric, label)` variable. */
export function dashboardExpressions(file = DASHBOARD_FILE): { panel: string; expr: string }[] {
  const dash = JSON.parse(readFileSync(file, 'utf8')) as Dashboard;
  const targets = dash.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
  const variables = (dash.templating?.list ?? []).flatMap((v) => {
    const m = /label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,/u.exec(v.definition ?? '');
    return m ? [{ panel: `variable ${v.name}`, expr: m[1] as string }] : [];
  });
  return [...targets, ...variables];
}

/**
 * The series names a Prometheus text exposition offers: every sample's name, and for each `# TYPE` family the names
 * a query may use (a histogram's `_bucket`, `_sum`, `_count`), whether or not it has samples yet.
 */
export function servedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/u.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      names.add(name);
      if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
      if (kind === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
      continue;
    }
    const sample = /^([A-Za-z_:][A-Za-z0-9_:]*)[{ ]/u.exec(line);
    if (sample) names.add(sample[1] as string);
  }
  return names;
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function samples(exposition: string): Sample[] {
  const out: Sample[] = [];
  for (const line of exposition.split('\n')) {
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})? (\S+)/u.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/gu)) labels[l[1] as string] = (l[2] as string).replace(/\\(.)/gu, '$1');
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of the samples of `name` whose labels include `match`. */
export function total(all: readonly Sample[], name: string, match: Record<string, string> = {}): number {
  return all.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
}
