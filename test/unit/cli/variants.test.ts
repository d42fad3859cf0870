import { describe, expect, it } from 'vitest';
import { formatRuns } from '../../../src/cli/commands/runs/action';
import { matrixPlanLines } from '../../../src/cli/commands/run/matrixPlan';
import { UsageError } from '../../../src/cli/usageError';
import { checkReference, resolveVariants } from '../../../src/cli/commands/run/variants';
import type { HistoryEntry } from '../../../src/render/history';
import { renderHistoryHtml } from '../../../src/render/historyHtml';

const one = { siteFrom: '--site', modelFrom: '--model' };

describe('resolveVariants', () => {
  it('is undefined for one site and one model: an ordinary run', () => {
    expect(resolveVariants({ ...one, site: 'shop', model: 'gpt-4o-mini' })).toBeUndefined();
  });

  it('names a variant after its model, its site, or both when both are lists (every combination)', () => {
    expect(resolveVariants({ ...one, site: 'shop', model: 'a,b' })).toEqual([{ name: 'a', siteId: 'shop', model: 'a' }, { name: 'b', siteId: 'shop', model: 'b' }]);
    expect(resolveVariants({ ...one, site: 'x,y' })).toEqual([{ name: 'x', siteId: 'x' }, { name: 'y', siteId: 'y' }]);
    expect(resolveVariants({ ...one, site: 'x,y', model: 'a,b' })?.map((v) => v.name)).toEqual(['x-a', 'x-b', 'y-a', 'y-b']);
  });

  it("takes the config's variants over the run's site and model, and refuses lists beside them", () => {
    const config = { assertions: [], variants: [{ name: 'en', response_language: 'en' }, { name: 'de', response_language: 'de', ui_locale: 'de-DE', site: 'shop-de' }] };
    expect(resolveVariants({ ...one, site: 'shop', model: 'm', config, configFile: 'c.yaml' })).toEqual([
      { name: 'en', siteId: 'shop', model: 'm', responseLanguage: 'en' },
      { name: 'de', siteId: 'shop-de', model: 'm', responseLanguage: 'de', uiLocale: 'de-DE' },
    ]);
    expect(() => resolveVariants({ ...one, site: 'shop', model: 'a,b', config, configFile: 'c.yaml' })).toThrow(/--model names several models and c\.yaml: `variants` lists variants/u);
  });

  it('refuses a model twice, a model that cannot name a folder, and a --reference that is no variant', () => {
    expect(() => resolveVariants({ ...one, site: 's', model: 'a,a' })).toThrow(UsageError);
    expect(() => resolveVariants({ ...one, site: 's', model: 'org/a,b' })).toThrow(/"org\/a" cannot name a variant's run/u);
    const variants = resolveVariants({ ...one, site: 's', model: 'a,b' });
    expect(() => checkReference('c', variants)).toThrow(/not a variant of this run; the variants are a, b/u);
    expect(() => checkReference('a', undefined)).toThrow(/names a variant of a matrix run/u);
  });
});

describe('matrixPlanLines', () => {
  it('adds up the questions of the variants on one site against its rate, and runs sites in parallel', () => {
    const lines = matrixPlanLines([{ name: 'a', siteId: 's1', model: 'a' }, { name: 'b', siteId: 's1', model: 'b' }, { name: 'c', siteId: 's2' }], 150, 5);
    expect(lines).toEqual([
      'plan: 3 variants × 150 questions = 450 questions, every variant at once',
      '  site s1: 2 variants share its 5 requests/s per API path (a, b) — 300 questions ≈ 60 s at 5/s',
      '  site s2 (c) — 150 questions ≈ 30 s at 5/s',
      "expected time ≈ 60 s + the answer time (the busiest site's 300 questions at 5/s); the 2 sites run in parallel, each on its own budget",
    ]);
  });
});

function entry(runId: string, startedAt: string, parent?: { runId: string; variant: string }): HistoryEntry {
  return {
    runId, kind: 'evaluation', dataset: '/d/demo.csv', datasetSha256: 'ab', siteId: 'demo-site', model: parent?.variant ?? null, startedAt, finishedAt: startedAt,
    rows: 66, passRate: 0.5, uncertain: 0, errors: 0, errorRate: 0, verdict: 'passed', reasons: [], origin: 'evaluation', ...(parent && { parent }),
  };
}

describe('grouping variants under their parent', () => {
  const entries = [
    entry('r2', '2026-11-24T02:00'),
    entry('p1-b', '2026-11-24T01:01', { runId: 'p1', variant: 'b' }),
    entry('p1-a', '2026-11-24T01:00', { runId: 'p1', variant: 'a' }),
    entry('r0', '2026-11-24T00:00'),
  ];

  it('sitechat runs: a line for the parent, its variants indented under it', () => {
    const lines = formatRuns(entries);
    expect(lines.map((l) => l.trim().split(/\s{2,}/u)[0])).toEqual(['run', 'r2', 'p1', 'p1-a', 'p1-b', 'r0']);
    expect(lines[2]).toMatch(/^p1 +2 variants: a, b$/u);
    expect(lines[3]).toMatch(/^ {2}p1-a /u);
  });

  it('history.html: the parent as a group linking its combined report and each variant', () => {
    const html = renderHistoryHtml(entries, {
      href: (e) => `${e.runId}/report.html`, generatedAt: '2026-11-24T03:00:00Z',
      parents: [{ runId: 'p1', variants: entries.slice(1, 3), href: 'p1/report.html' }],
    });
    expect(html).toContain('Matrix and multi-site runs (1)');
    expect(html).toMatch(/<a href="p1\/report.html">p1<\/a>.*<a href="p1-a\/report.html">a<\/a>.*<a href="p1-b\/report.html">b<\/a>/su);
  });
});
