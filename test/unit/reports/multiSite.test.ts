import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictLabel } from '../../../src/analysis/gate';
import { combineGates, overallLabel, summarizeMultiSite } from '../../../src/analysis/multiSite';
import { type SiteLine } from '../../../src/domain/multiSite';
import { writeMultiSiteReports } from '../../../src/render/multiSiteRender';
import { finalizeRun } from '../../../src/render/writeReports';
import { meta, row, useTempStore } from './fixtures';

function line(siteId: string, overrides: Partial<SiteLine>): SiteLine {
  return {
    siteId, runId: `r-${siteId}`, workflowId: `w-${siteId}`, rows: 2, passed: 2, failed: 0, uncertain: 0, answered: 0, error: 0, timedOut: 0, skipped: 0, missing: 0,
    passRate: 1, errorRate: 0, durationMs: 1, verdict: 'passed', ...overrides,
  };
}

describe('combineGates', () => {
  it('passes only when every site passed; lists each failing site\'s reasons prefixed with the site', () => {
    expect(combineGates([line('a', {}), line('b', {})]).verdict).toBe('passed');
    // A site without a threshold was not judged: the run is not PASSED, and the warning says which site and why.
    const unjudged = combineGates([line('a', {}), line('b', { verdict: 'no_threshold' }), line('c', {})]);
    expect(unjudged).toMatchObject({ verdict: 'no_threshold', passed: true, reasons: [] });
    expect(unjudged.warnings[0]).toMatch(/^not judged: no quality threshold set on site b \(.*--baseline latest, no earlier run of that site\), so the run is not called PASSED although a, c passed/u);
    expect(overallLabel('no_threshold', [line('a', {}), line('b', { verdict: 'no_threshold' })], verdictLabel)).toBe('no quality threshold set on site b (passed: a)');
    expect(overallLabel('passed', [line('a', {})], verdictLabel)).toBe('PASSED');
    expect(combineGates([line('a', { verdict: 'no_threshold' })]).verdict).toBe('no_threshold');
    const failed = combineGates([line('a', {}), line('b', { verdict: 'failed', gate: { verdict: 'failed', passed: false, reasons: ['pass rate 50.0% is below 90.0%'], warnings: [] } })]);
    expect(failed).toMatchObject({ verdict: 'failed', passed: false, reasons: ['site b: pass rate 50.0% is below 90.0%'] });
    const broken = combineGates([line('a', {}), line('c', { verdict: 'run_failed', failure: '401 invalid_api_key' })]);
    expect(broken.reasons).toEqual(['site c: the run failed: 401 invalid_api_key']);
    expect(combineGates([line('a', { verdict: 'cancelled' }), line('b', { verdict: 'failed' })]).verdict).toBe('cancelled');
  });
});

describe('summarizeMultiSite and the combined report files', () => {
  const ctx = useTempStore();

  it('adds up every site\'s rows and lines up each site\'s own gate; links each site\'s reports', async () => {
    const sites = ['a', 'b'];
    for (const [i, site] of sites.entries()) {
      const runId = `p-${site}`;
      await ctx.store.init(runId, meta({ runId, siteId: site, rowCount: 2 }));
      await ctx.store.append(runId, [row(0), row(1, { outcome: i === 0 ? 'passed' : 'failed' })]);
      await finalizeRun(ctx.store, runId, { outDir: join(ctx.dir, runId), gate: { failUnder: 0.9 } });
    }
    const summary = await summarizeMultiSite(ctx.store, {
      runId: 'p', workflowId: 'wp', kind: 'evaluation', dataset: 'datasets/demo.csv', startedAt: '2025-01-01T00:00:00.000Z',
      sites: sites.map((s) => ({ siteId: s, runId: `p-${s}`, workflowId: `wp-${s}`, reportDir: join(ctx.dir, `p-${s}`) })),
    });
    expect(summary).toMatchObject({ total: 4, passed: 3, failed: 1, siteId: 'a,b', missing: 0 });
    expect(summary.sites.map((s) => [s.siteId, s.verdict, s.passRate])).toEqual([['a', 'passed', 1], ['b', 'failed', 0.5]]);
    expect(summary.gate?.verdict).toBe('failed');
    expect(summary.gateSettings?.failUnder).toBe(0.9);

    const out = join(ctx.dir, 'p');
    const paths = await writeMultiSiteReports(summary, out);
    expect(paths.map((p) => p.slice(out.length + 1))).toEqual(['summary.json', 'report.md', 'report.html', 'junit.xml']);
    const md = await readFile(join(out, 'report.md'), 'utf8');
    expect(md).toContain('| [b](../p-b/report.md) | 2 | 1 | 1 | 0 | 0 | 0 | 50.0% | 0.0% |');
    expect(md).toContain('**Overall: FAILED**');
    const junit = await readFile(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="sitechat.gate" name="b"[^>]*><failure message="gate failed on site b">/);
    expect(junit).toContain('failures="1" errors="0"');
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<a href="../p-a/report.html">a</a>');
  });

  it('a site that was never judged (its first run under --baseline latest) keeps the combined reports from saying PASSED', async () => {
    // Site a has a baseline and passes its gate; site b has no earlier run, so its gate has nothing to judge by.
    await ctx.store.init('u-a', meta({ runId: 'u-a', siteId: 'a', rowCount: 2 }));
    await ctx.store.append('u-a', [row(0), row(1)]);
    await finalizeRun(ctx.store, 'u-a', { outDir: join(ctx.dir, 'u-a'), gate: { failUnder: 0.5 } });
    await ctx.store.init('u-b', meta({ runId: 'u-b', siteId: 'b', rowCount: 2 }));
    await ctx.store.append('u-b', [row(0), row(1)]);
    await finalizeRun(ctx.store, 'u-b', { outDir: join(ctx.dir, 'u-b'), gate: {} });
    const summary = await summarizeMultiSite(ctx.store, {
      runId: 'u', workflowId: 'wu', kind: 'evaluation', dataset: 'd.csv', startedAt: '2025-01-01T00:00:00.000Z',
      sites: ['a', 'b'].map((s) => ({ siteId: s, runId: `u-${s}`, workflowId: `wu-${s}`, reportDir: join(ctx.dir, `u-${s}`) })),
    });
    expect(summary.sites.map((s) => s.verdict)).toEqual(['passed', 'no_threshold']);
    expect(summary.gate).toMatchObject({ verdict: 'no_threshold', passed: true });
    const out = join(ctx.dir, 'u');
    await writeMultiSiteReports(summary, out);
    const md = await readFile(join(out, 'report.md'), 'utf8');
    expect(md).toContain('**Overall: no quality threshold set on site b (passed: a)**');
    expect(md).toContain('not judged: no quality threshold set on site b');
    expect(md).not.toContain('PASSED**');
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Overall: no quality threshold set on site b (passed: a)');
  });

  it('a site whose run left no summary is a failed site, with its reason', async () => {
    const summary = await summarizeMultiSite(ctx.store, {
      runId: 'q', workflowId: 'wq', kind: 'evaluation', dataset: 'd.csv', startedAt: '2025-01-01T00:00:00.000Z',
      sites: [{ siteId: 'x', runId: 'q-x', workflowId: 'wq-x', failure: { message: 'dataset changed', type: 'DatasetChangedError' } }],
    });
    expect(summary.sites[0]).toMatchObject({ verdict: 'run_failed', failure: 'dataset changed', rows: 0 });
    expect(summary.gate?.reasons).toEqual(['site x: the run failed: dataset changed']);
  });
});
