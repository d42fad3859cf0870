import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBaseline } from '../../../src/reports/baseline';
import { ReportFile, StoreFile } from '../../../src/reports/files';
import { finalizeRun, writeReports } from '../../../src/reports/writeReports';
import type { RowResult, RunSummary } from '../../../src/reports/types';
import { meta, row, useTempStore } from './fixtures';
import { checkWellFormedXml } from './xmlCheck';

describe('writeReports / finalizeRun', () => {
  const ctx = useTempStore();

  it('writes all five files beside the raw log, deduplicated and in dataset order', async () => {
    await ctx.store.init('run-1', meta({ rowCount: 3 }));
    await ctx.store.append('run-1', [row(2), row(0, { outcome: 'failed' })]);
    await ctx.store.append('run-1', [row(0), row(1)]); // retried row 0 now passes
    const { summary, gate, paths } = await finalizeRun(ctx.store, 'run-1', { outDir: ctx.store.runDir('run-1'), finishedAt: '2025-01-01T00:00:10.000Z', gate: { failUnder: 0.9 } });

    expect(Object.keys(paths).sort()).toEqual(['html', 'junit', 'markdown', 'results', 'summary']);
    const lines = (await readFile(paths.results, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as RowResult).id)).toEqual(['r0', 'r1', 'r2']);
    expect((JSON.parse(lines[0] ?? '') as RowResult).outcome).toBe('passed');
    expect(gate).toEqual({ passed: true, reasons: [], warnings: [] });
    expect(JSON.parse(await readFile(paths.summary, 'utf8'))).toEqual(summary);
    expect(summary).toMatchObject({ total: 3, passed: 3, missing: 0, durationMs: 10_000, gate });
    expect((await ctx.store.getMeta('run-1'))?.finishedAt).toBe('2025-01-01T00:00:10.000Z');
    checkWellFormedXml(await readFile(paths.junit, 'utf8'));
    expect(await readFile(paths.markdown, 'utf8')).toContain('**Quality gate: PASSED** ✅');
    expect(await readFile(paths.html, 'utf8')).toContain('</html>');
    expect(await readFile(join(ctx.store.runDir('run-1'), StoreFile.log), 'utf8')).toMatch(/^(.*\n){4}$/);
  });

  it('compares with a baseline and fails the gate on a significant regression', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i);
    await ctx.store.init('base', meta({ runId: 'base' }));
    await ctx.store.append('base', ids.map((i) => row(i, { outcome: i < 10 ? 'passed' : 'failed' })));
    await finalizeRun(ctx.store, 'base', { outDir: ctx.store.runDir('base') });
    await ctx.store.init('now', meta({ runId: 'now' }));
    await ctx.store.append('now', ids.map((i) => row(i, { outcome: i < 10 ? 'failed' : 'passed' })));

    const baseline = await loadBaseline(ctx.store.runDir('base'));
    const outDir = join(ctx.dir, 'out');
    const { summary, gate } = await finalizeRun(ctx.store, 'now', { outDir, baseline });
    expect(summary.baseline).toMatchObject({ regressed: ids.slice(0, 10).map((i) => `r${i}`), fixed: ['r10', 'r11'], mcnemar: { b: 10, c: 2, significant: true } });
    expect(gate.passed).toBe(false);
    const md = await readFile(join(outDir, ReportFile.markdown), 'utf8');
    expect(md).toContain('## Regressions (10)');
    expect(md).toContain('Significant regression against base');
  });

  it('renders a run that is not finished yet, and refuses an unknown run', async () => {
    await ctx.store.init('live', meta({ runId: 'live' }));
    await ctx.store.append('live', [row(0)]);
    const { paths } = await writeReports(ctx.store, 'live', join(ctx.dir, 'live-out'));
    expect((JSON.parse(await readFile(paths.summary, 'utf8')) as RunSummary).gate).toBeUndefined();
    await expect(writeReports(ctx.store, 'ghost', ctx.dir)).rejects.toThrow('reports: run ghost not found in the results store');
  });
});
