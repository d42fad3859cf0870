import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { baselineRowsFor, baselineVerdict, loadBaseline, loadBaselineFromStore } from '../../../src/analysis/baseline';
import { loadExplicitBaseline, selectLatestBaseline, type BaselineTarget } from '../../../src/analysis/baselineSelect';
import { StoreFile } from '../../../src/store/files';
import { summarize } from '../../../src/analysis/summary';
import { finalizeRun } from '../../../src/render/writeReports';
import type { Outcome } from '../../../src/domain/results';
import { meta, row, useTempStore } from './fixtures';

describe('baseline loading', () => {
  const ctx = useTempStore();

  async function finishedRun(runId: string, startedAt: string, outcomes: Outcome[], overrides = {}, cancelled = false): Promise<void> {
    await ctx.store.init(runId, meta({ runId, startedAt, ...overrides }));
    await ctx.store.append(runId, outcomes.map((outcome, i) => row(i, { outcome, tags: ['t'] })));
    await finalizeRun(ctx.store, runId, { outDir: ctx.store.runDir(runId), finishedAt: startedAt, cancelled });
  }

  const target: BaselineTarget = { runId: 'current', dataset: 'datasets/demo.csv', datasetSha256: 'abc123', siteId: 'site-1', model: null, maxErrorRate: 0 };

  it('reads outcomes and pass rate from a run directory or a file in it', async () => {
    await finishedRun('old', '2025-01-01T00:00:00.000Z', ['passed', 'failed', 'passed', 'error']);
    for (const path of [ctx.store.runDir('old'), join(ctx.store.runDir('old'), 'summary.json')]) {
      const baseline = await loadBaseline(path);
      expect(baseline.runId).toBe('old');
      expect(baseline.passRate).toBeCloseTo(2 / 3);
      expect([...baseline.outcomes]).toEqual([['r0', 'passed'], ['r1', 'failed'], ['r2', 'passed'], ['r3', 'error']]);
    }
    const fromStore = await loadBaselineFromStore(ctx.store, 'old');
    const fromDir = await loadBaseline(ctx.store.runDir('old'));
    expect({ ...fromStore, readRows: undefined }).toEqual({ ...fromDir, readRows: undefined });
    expect(fromDir.byTag).toEqual({ t: { total: 4, passed: 2, failed: 1, graded: 3 } });
    // Only the rows asked for are loaded back (the answers of regressed and fixed rows).
    expect([...(await baselineRowsFor(fromDir, new Set(['r1', 'r3']))).keys()]).toEqual(['r1', 'r3']);
    expect([...(await baselineRowsFor(fromStore, new Set(['r2']))).values()].map((r) => r.outcome)).toEqual(['passed']);
  });

  it('explains a missing baseline', async () => {
    await expect(loadBaseline(join(ctx.dir, 'nope'))).rejects.toThrow(/no such file or directory/);
    await ctx.store.init('bare', meta({ runId: 'bare' }));
    await expect(loadBaseline(ctx.store.runDir('bare'))).rejects.toThrow(/no results.jsonl/);
  });

  it('--baseline latest takes the newest compatible run and lists the newer ones it passed over, with reasons', async () => {
    await finishedRun('a', '2025-01-01T00:00:00.000Z', ['passed', 'failed']);
    await finishedRun('b', '2025-01-02T00:00:00.000Z', ['passed', 'passed']);
    await finishedRun('c', '2025-01-03T00:00:00.000Z', ['passed'], { siteId: 'other' });
    await finishedRun('d', '2025-01-04T00:00:00.000Z', ['answered'], { kind: 'backfill' });
    await finishedRun('e', '2025-01-05T00:00:00.000Z', ['passed'], { datasetSha256: 'different' });
    await finishedRun('f', '2025-01-06T00:00:00.000Z', ['passed', 'passed'], { model: 'gpt-3.5-mini-sim' });
    await finishedRun('g', '2025-01-07T00:00:00.000Z', ['passed', 'skipped'], {}, true);
    await finishedRun('h', '2025-01-08T00:00:00.000Z', ['passed', 'error']);
    await finishedRun('i', '2025-01-09T00:00:00.000Z', ['passed', 'passed']);
    await writeFile(join(ctx.store.runDir('i'), StoreFile.summary), '{"runId": "i", "tot'); // corrupt
    await finishedRun('j', '2025-01-10T00:00:00.000Z', ['passed', 'passed']);
    await writeFile(join(ctx.store.runDir('j'), StoreFile.log), '{"id":"r0","index":0,"outcome":"passed"}\n{"id":"r1"'); // rows lost
    await ctx.store.init('k', meta({ runId: 'k', startedAt: '2025-01-11T00:00:00.000Z' })); // still running
    await ctx.store.init('current', meta({ runId: 'current', startedAt: '2025-01-12T00:00:00.000Z' }));

    const { baseline, selection, unavailable } = await selectLatestBaseline(ctx.store, target);
    expect(unavailable).toBe(false);
    expect(baseline?.runId).toBe('b');
    expect(selection.chosen).toMatchObject({ runId: 'b', model: null });
    expect(selection.chosen?.reason).toMatch(/^newest finished run of the same dataset \(sha256 abc123\), site site-1 and the site default model; not cancelled; error rate 0\.0% within 0\.0%$/);
    expect(selection.skipped).toEqual([
      { runId: 'k', reason: 'not finished (still running, or it crashed before its reports)' },
      { runId: 'j', reason: 'corrupt results: 1 row readable, its summary counts 2' },
      { runId: 'i', reason: expect.stringMatching(/^unreadable summary \(/) as string },
      { runId: 'h', reason: 'error rate 50.0% above the gate\'s 0.0%' },
      { runId: 'g', reason: 'cancelled (1 row skipped)' },
      { runId: 'f', reason: 'another model (model gpt-3.5-mini-sim; this run uses the site default model)' },
      { runId: 'e', reason: 'another version of the dataset (sha256 different, this run abc123)' },
    ]);
    // Same model wanted: the weaker model's run is now the one.
    expect((await selectLatestBaseline(ctx.store, { ...target, model: 'gpt-3.5-mini-sim' })).baseline?.runId).toBe('f');
    // A looser error-rate gate accepts h.
    expect((await selectLatestBaseline(ctx.store, { ...target, maxErrorRate: 0.5 })).baseline?.runId).toBe('h');
  });

  it('--baseline latest with nothing compatible: no comparison, a clear message, not a failure', async () => {
    await finishedRun('f', '2025-01-06T00:00:00.000Z', ['passed'], { model: 'other' });
    const none = await selectLatestBaseline(ctx.store, target);
    expect(none.baseline).toBeUndefined();
    expect(none).toMatchObject({ unavailable: true, selection: { requested: 'latest', skipped: [{ runId: 'f' }] } });
    expect(none.selection.message).toMatch(/^no compatible earlier run/);
    const first = await selectLatestBaseline(ctx.store, { ...target, siteId: 'elsewhere' });
    expect(first.selection.message).toMatch(/^no earlier run of this dataset on site elsewhere/);
  });

  it('--baseline DIR of another model, dataset or a cancelled run is compared, with warnings; an unreadable one is reported', async () => {
    await finishedRun('x', '2025-01-06T00:00:00.000Z', ['passed', 'skipped'], { model: 'm2', datasetSha256: 'zzz' }, true);
    const choice = await loadExplicitBaseline(ctx.store.runDir('x'), { ...target, model: 'm1' });
    expect(choice.baseline?.runId).toBe('x');
    expect(choice.selection.warnings).toEqual([
      'baseline x is of another dataset (sha256 zzz, this run abc123): only rows with the same id are paired',
      'baseline x used model m2; this run uses model m1',
      'baseline x was cancelled (1 row skipped)',
    ]);
    const missing = await loadExplicitBaseline(join(ctx.dir, 'nope'), target);
    expect(missing.baseline).toBeUndefined();
    expect(missing.unavailable).toBe(false);
    expect(missing.selection.message).toMatch(/could not be loaded: baseline .*nope: no such file or directory/);
  });

  it('--baseline DIR of a multi-site run gives each site the same site\'s run in it', async () => {
    await finishedRun('multi-site-1', '2025-01-07T00:00:00.000Z', ['passed', 'passed'], { siteId: 'site-1' });
    await finishedRun('multi-site-2', '2025-01-07T00:00:00.000Z', ['failed', 'failed'], { siteId: 'site-2' });
    // The combined report's summary names each site's run directory (here: where the store wrote it).
    const combined = join(ctx.dir, 'multi');
    await mkdir(combined);
    const sites = [1, 2].map((n) => ({ siteId: `site-${n}`, runId: `multi-site-${n}`, reportDir: ctx.store.runDir(`multi-site-${n}`) }));
    await writeFile(join(combined, 'summary.json'), JSON.stringify({ runId: 'multi', sites }));
    expect((await loadExplicitBaseline(combined, target)).baseline?.runId).toBe('multi-site-1');
    expect((await loadExplicitBaseline(combined, { ...target, siteId: 'site-2' })).baseline?.passRate).toBe(0);
    const other = await loadExplicitBaseline(combined, { ...target, siteId: 'site-3' });
    expect(other.baseline).toBeUndefined();
    expect(other.selection.message).toMatch(/is a multi-site run without site site-3 \(its sites: site-1, site-2\)/);
  });

  it('--baseline DIR of a matrix run gives each variant its counterpart: the same name, else the same site and model', async () => {
    // Two models on one site: two lines of site-1, in the variants' folders DIR/<variant>/ as `sitechat run --out` puts them.
    const combined = join(ctx.dir, 'matrix');
    await mkdir(combined);
    const store = ctx.store;
    await finishedRun('mx-big', '2025-01-08T00:00:00.000Z', ['passed', 'passed'], { model: 'big' });
    await finishedRun('mx-small', '2025-01-08T00:00:00.000Z', ['failed', 'passed'], { model: 'small' });
    const sites = [['big', 'mx-big'], ['small', 'mx-small']].map(([name, runId]) => ({ siteId: 'site-1', runId, reportDir: store.runDir(runId!), variant: { name, siteId: 'site-1', model: name } }));
    await writeFile(join(combined, 'summary.json'), JSON.stringify({ runId: 'mx', sites }));
    expect((await loadExplicitBaseline(combined, { ...target, variant: 'small', model: 'small' })).baseline?.runId).toBe('mx-small');
    // By name even when the model changed between the two nights (the variant is what the user tracks).
    const renamedModel = await loadExplicitBaseline(combined, { ...target, variant: 'big', model: 'bigger' });
    expect(renamedModel.baseline?.runId).toBe('mx-big');
    expect(renamedModel.selection.warnings).toContain('baseline mx-big used model big; this run uses model bigger');
    // An ordinary run (no variant) against that matrix run: the line of its own model.
    expect((await loadExplicitBaseline(combined, { ...target, model: 'small' })).baseline?.runId).toBe('mx-small');
    const none = await loadExplicitBaseline(combined, { ...target, model: 'medium' });
    expect(none.baseline).toBeUndefined();
    expect(none.selection.message).toMatch(/has 2 variants on site site-1, none named \(no variant\) or of model medium \(its variants: big, small\)/);
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
