import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineVerdict, findLatestRun, loadBaseline, loadBaselineFromStore } from '../../../src/reports/baseline';
import { summarize } from '../../../src/reports/summary';
import { finalizeRun } from '../../../src/reports/writeReports';
import type { Outcome } from '../../../src/reports/types';
import { meta, row, useTempStore } from './fixtures';

describe('baseline loading', () => {
  const ctx = useTempStore();

  async function finishedRun(runId: string, startedAt: string, outcomes: Outcome[], overrides = {}): Promise<void> {
    await ctx.store.init(runId, meta({ runId, startedAt, ...overrides }));
    await ctx.store.append(runId, outcomes.map((outcome, i) => row(i, { outcome })));
    await finalizeRun(ctx.store, runId, { outDir: ctx.store.runDir(runId), finishedAt: startedAt });
  }

  it('reads outcomes and pass rate from a run directory or a file in it', async () => {
    await finishedRun('old', '2025-01-01T00:00:00.000Z', ['passed', 'failed', 'passed', 'error']);
    for (const path of [ctx.store.runDir('old'), join(ctx.store.runDir('old'), 'summary.json')]) {
      const baseline = await loadBaseline(path);
      expect(baseline.runId).toBe('old');
      expect(baseline.passRate).toBeCloseTo(2 / 3);
      expect([...baseline.outcomes]).toEqual([['r0', 'passed'], ['r1', 'failed'], ['r2', 'passed'], ['r3', 'error']]);
    }
    expect(await loadBaselineFromStore(ctx.store, 'old')).toEqual(await loadBaseline(ctx.store.runDir('old')));
  });

  it('explains a missing baseline', async () => {
    await expect(loadBaseline(join(ctx.dir, 'nope'))).rejects.toThrow(/no such file or directory/);
    await ctx.store.init('bare', meta({ runId: 'bare' }));
    await expect(loadBaseline(ctx.store.runDir('bare'))).rejects.toThrow(/no results.jsonl/);
  });

  it('finds the latest finished evaluation of the same dataset and site', async () => {
    await finishedRun('a', '2025-01-01T00:00:00.000Z', ['passed']);
    await finishedRun('b', '2025-01-02T00:00:00.000Z', ['passed']);
    await finishedRun('c', '2025-01-03T00:00:00.000Z', ['passed'], { siteId: 'other' });
    await finishedRun('d', '2025-01-04T00:00:00.000Z', ['answered'], { kind: 'backfill' });
    await finishedRun('e', '2025-01-05T00:00:00.000Z', ['passed'], { datasetSha256: 'different' });
    await ctx.store.init('current', meta({ runId: 'current', startedAt: '2025-01-06T00:00:00.000Z' }));

    expect((await findLatestRun(ctx.store, 'abc123', 'site-1'))?.runId).toBe('b');
    expect((await findLatestRun(ctx.store, 'abc123', 'site-1', 'b'))?.runId).toBe('a');
    // By path, a run on an edited file of the same name matches too (rows still pair by id).
    expect((await findLatestRun(ctx.store, 'datasets/demo.csv', 'site-1'))?.runId).toBe('e');
    expect(await findLatestRun(ctx.store, 'abc123', 'nowhere')).toBeUndefined();
  });
});

describe('baseline verdict', () => {
  async function compare(before: Outcome[], after: Outcome[]): Promise<string> {
    const baseline = { runId: 'base', passRate: null, outcomes: new Map(before.map((o, i) => [`r${i}`, o] as const)) };
    const s = await summarize(meta(), (async function* () { for (const [i, outcome] of after.entries()) yield row(i, { outcome }); })(), baseline);
    return baselineVerdict(s.baseline!);
  }

  it('tells a significant regression from noise', async () => {
    const tenRegressions = [...Array<Outcome>(10).fill('passed'), 'failed', 'failed'] satisfies Outcome[];
    const after = [...Array<Outcome>(10).fill('failed'), 'passed', 'passed'] satisfies Outcome[];
    expect(await compare(tenRegressions, after)).toMatch(/^Significant regression against base: 10 regressed, 2 fixed of 12 .*p = 0\.0386 < 0\.05/);
    expect(await compare(after, tenRegressions)).toMatch(/^Significant improvement/);
    expect(await compare(['passed', 'failed'], ['failed', 'passed'])).toMatch(/^No significant change .*1 regressed, 1 fixed/);
  });
});
