import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { labelForRow } from '../../../src/labels/rowSubject';
import { loadBaselineFromStore } from '../../../src/analysis/baseline';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import { finalizeRun } from '../../../src/render/writeReports';
import type { Outcome, RowResult } from '../../../src/domain/results';
import { buildRunQueue } from '../../../src/review/queue';
import { Reservoir } from '../../../src/review/sample';
import { tokenMatches } from '../../../src/shared/serverGuard';

function row(id: string, index: number, outcome: Outcome, extra: Partial<RowResult> = {}): RowResult {
  return { id, index, line: index + 2, question: `Q ${id}`, expected: `R ${id}`, answer: `A ${id}`, outcome, ...extra };
}

async function seed(store: FileResultsStore, dir: string, runId: string, rows: RowResult[], baseline?: string): Promise<void> {
  await store.init(runId, {
    runId, workflowId: `wf-${runId}`, kind: 'evaluation', dataset: '/d.csv', datasetSha256: 'ab'.repeat(32), siteId: 'site-a',
    startedAt: new Date(Date.parse('2026-11-23T10:00:00Z') + (baseline ? 60_000 : 0)).toISOString(), rowCount: rows.length, options: {},
  });
  await store.append(runId, rows);
  await finalizeRun(store, runId, { outDir: join(dir, runId), ...(baseline && { baseline: await loadBaselineFromStore(store, baseline) }), gate: { failUnder: 0.5 } });
}

describe('review queue', () => {
  let dir: string;
  let store: FileResultsStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-queue-'));
    store = new FileResultsStore(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('orders uncertain, regressed, failed, then a seeded sample of passed rows; labelled rows are settled; turns and baseline answers attached', async () => {
    const passed = Array.from({ length: 20 }, (_, i) => row(`p${i}`, 10 + i, 'passed'));
    await seed(store, dir, 'base', [row('f1', 0, 'failed'), row('reg', 1, 'passed', { answer: 'old answer' }), row('u1', 2, 'uncertain'), ...passed]);
    await seed(store, dir, 'now', [
      row('f1', 0, 'failed'), row('reg', 1, 'failed'),
      row('t1', 3, 'passed', { conversation: 'c', turn: 1 }), row('u1', 4, 'uncertain', { conversation: 'c', turn: 2 }),
      row('x', 5, 'error', { answer: undefined }), ...passed,
    ], 'base');
    await store.putLabels([labelForRow('site-a', row('f1', 0, 'failed'), { verdict: 'pass', at: '2026-11-23T11:00:00Z', by: 'ana' })]);

    const summary = await store.getSummary('now');
    expect(summary?.baseline?.regressed).toEqual(['reg']);
    const { items } = await buildRunQueue(store, 'now', summary, { sample: 3 });
    expect(items.slice(0, 3).map((i) => `${i.rowId}:${i.reason}`)).toEqual(['u1:uncertain', 'reg:regressed', 'f1:failed']);
    expect(items.slice(3).map((i) => i.reason)).toEqual(['spot-check', 'spot-check', 'spot-check']);
    expect(items.find((i) => i.rowId === 'x')).toBeUndefined();
    expect(items.find((i) => i.rowId === 'f1')?.label).toMatchObject({ verdict: 'pass', by: 'ana' });
    expect(items.find((i) => i.rowId === 'u1')?.priorTurns.map((t) => t.id)).toEqual(['t1']);
    expect(items.find((i) => i.rowId === 'reg')?.baseline).toEqual({ runId: 'base', answer: 'old answer', outcome: 'passed' });

    // The same seed draws the same spot checks; another seed (almost surely) others.
    const again = await buildRunQueue(store, 'now', summary, { sample: 3 });
    expect(again.items.map((i) => i.rowId)).toEqual(items.map((i) => i.rowId));
    const limited = await buildRunQueue(store, 'now', summary, { sample: 3, limit: 2 });
    expect(limited).toMatchObject({ omitted: 4 });
    expect(limited.items.map((i) => i.rowId)).toEqual(['u1', 'reg']);
  });

  it('keeps a labelled row where it was: a row settled by a label is queued by the outcome it had before', async () => {
    await seed(store, dir, 'run', [row('a', 0, 'passed', { decision: { verdict: 'fail', by: 'label', reason: 'label', was: 'uncertain' } }), row('b', 1, 'failed')]);
    const { items } = await buildRunQueue(store, 'run', await store.getSummary('run'), { sample: 0 });
    expect(items.map((i) => `${i.rowId}:${i.reason}`)).toEqual(['a:uncertain', 'b:failed']);
  });
});

describe('review sampling and token', () => {
  it('draws a uniform, seeded sample of bounded size', () => {
    const draw = (seed: string): number[] => {
      const r = new Reservoir<number>(5, seed);
      for (let i = 0; i < 1000; i++) r.offer(i);
      return r.items();
    };
    expect(draw('s')).toEqual(draw('s'));
    expect(draw('s')).toHaveLength(5);
    expect(draw('s')).not.toEqual(draw('t'));
  });

  it('matches only the exact token', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });
});
