import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/analysis/compare/compare';
import { CompareInputError, labelAndRun } from '../../../src/analysis/compare/rows';
import { writeComparison } from '../../../src/render/compare/write';
import { FileResultsStore } from '../../../src/store/file/resultsStore';
import type { Outcome, RowResult } from '../../../src/domain/results';

const SHA = 'ab'.repeat(32);

async function seed(store: FileResultsStore, runId: string, model: string, outcomes: (Outcome | null)[], opts: { finished?: boolean; sha?: string; question?: (i: number) => string } = {}): Promise<void> {
  await store.init(runId, {
    runId, workflowId: `sitechat-evaluation-${runId}`, kind: 'evaluation', dataset: 'q.csv', datasetSha256: opts.sha ?? SHA, siteId: 'demo-site', model,
    startedAt: '2026-11-23T10:00:00.000Z', rowCount: outcomes.length, options: {},
  });
  const rows: RowResult[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome === null) return;
    rows.push({ id: `q${index}`, index, line: index + 2, question: opts.question?.(index) ?? `Question ${index}?`, outcome, answer: `<b>${model} answer ${index}</b>`, latencyMs: 1000 });
  });
  await store.append(runId, rows);
  if (opts.finished !== false) await store.finish(runId, { runId } as never);
}

describe('compareRuns (file store)', () => {
  let dir: string;
  let store: FileResultsStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-compare-'));
    store = new FileResultsStore(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('pairs rows by id, says which cannot be paired and why, and writes the four files', async () => {
    await seed(store, 'run-a', 'gpt-4o-mini', ['passed', 'passed', 'failed', 'error', 'passed']);
    await seed(store, 'run-b', 'gpt-3.5-mini-sim', ['failed', 'passed', 'failed', 'passed', null]);
    const c = await compareRuns(store, ['run-a', 'run-b'], { now: () => new Date('2026-11-23T12:00:00Z') });
    expect(c.variants.map((v) => v.label)).toEqual(['gpt-4o-mini @ demo-site', 'gpt-3.5-mini-sim @ demo-site']);
    expect(c.pairedRows).toBe(3);
    expect(c.rows.filter((r) => r.unpaired).map((r) => [r.id, r.unpaired])).toEqual([
      ['q3', 'error in gpt-4o-mini @ demo-site'],
      ['q4', 'no result in gpt-3.5-mini-sim @ demo-site'],
    ]);
    expect(c.pairs[0]).toMatchObject({ wins: 1, ties: 2, losses: 0 });
    expect(c.conclusion).toMatch(/^No significant difference/);
    const files = await writeComparison(c, join(dir, 'cmp'));
    const html = readFileSync(files.html, 'utf8');
    expect(html).toContain('&lt;b&gt;gpt-4o-mini answer 0&lt;/b&gt;');
    expect(html).not.toContain('<b>gpt-4o-mini answer 0</b>');
    expect(readFileSync(files.markdown, 'utf8')).toMatch(/## Rows that cannot be paired \(2\)/);
    expect(JSON.parse(readFileSync(files.json, 'utf8'))).toMatchObject({ version: 2, pairedRows: 3, unpairedRows: 2 });
    expect(readFileSync(files.junit, 'utf8').match(/<testsuite /g)).toHaveLength(2);
  });

  it('tells two runs of one model and site apart by their run ids, each said once', async () => {
    await seed(store, 'run-a', 'm', ['passed']);
    await seed(store, 'run-b', 'm', ['failed']);
    const c = await compareRuns(store, ['run-a', 'run-b']);
    expect(c.variants.map((v) => v.label)).toEqual(['m @ demo-site · run-a', 'm @ demo-site · run-b']);
    // The terminal's line, and the tables with a run column of their own, do not repeat the id.
    expect(c.variants.map(labelAndRun)).toEqual(['m @ demo-site · run-a', 'm @ demo-site · run-b']);
    expect(labelAndRun({ label: 'm @ demo-site', runId: 'run-c' })).toBe('m @ demo-site (run-c)');
    const files = await writeComparison(c, join(dir, 'cmp'));
    expect(readFileSync(files.markdown, 'utf8')).toContain('| m @ demo-site | run-a |');
    expect(readFileSync(files.html, 'utf8')).toContain('<td>m @ demo-site</td><td class="id">run-a</td>');
  });

  it('refuses unfinished runs, unknown runs, a run named twice and runs of different datasets', async () => {
    await seed(store, 'run-a', 'm', ['passed']);
    await seed(store, 'run-open', 'm', ['passed'], { finished: false });
    await seed(store, 'run-other', 'm', ['passed'], { sha: 'cd'.repeat(32) });
    await expect(compareRuns(store, ['run-a', 'run-open'])).rejects.toThrow(/run run-open has not finished/);
    await expect(compareRuns(store, ['run-a', 'nope'])).rejects.toThrow(/no run nope in the results store/);
    await expect(compareRuns(store, ['run-a', 'run-a'])).rejects.toThrow(CompareInputError);
    await expect(compareRuns(store, ['run-a'])).rejects.toThrow(/at least two runs/);
    await expect(compareRuns(store, ['run-a', 'run-other'])).rejects.toThrow(/asked different datasets .* --any-dataset/);
    const any = await compareRuns(store, ['run-a', 'run-other'], { anyDataset: true });
    expect(any.pairedRows).toBe(1);
  });

  it('with --any-dataset, a row whose question differs is not paired', async () => {
    await seed(store, 'run-a', 'm', ['passed', 'passed']);
    await seed(store, 'run-b', 'm', ['passed', 'failed'], { sha: 'cd'.repeat(32), question: (i) => (i === 1 ? 'Another question?' : `Question ${i}?`) });
    const c = await compareRuns(store, ['run-a', 'run-b'], { anyDataset: true });
    expect(c.rows.find((r) => r.id === 'q1')?.unpaired).toMatch(/the question differs/);
    expect(c.pairs[0]).toMatchObject({ wins: 0, ties: 1, losses: 0 });
  });

  it('with repeats, counts every answer of a row and compares with CMH; confirming answers are left out and counted', async () => {
    await seed(store, 'run-a', 'm', ['passed', 'failed']);
    await seed(store, 'run-b', 'm', ['passed', 'passed']);
    await store.append('run-b', [
      { id: 'q0#r2', baseId: 'q0', repeat: 2, index: 0, line: 2, question: 'Question 0?', outcome: 'failed', answer: 'x' },
      { id: 'q1#r2', baseId: 'q1', repeat: 2, index: 1, line: 3, question: 'Question 1?', outcome: 'passed', answer: 'z' },
      { id: 'q1#c1', baseId: 'q1', confirm: 1, index: 1, line: 3, question: 'Question 1?', outcome: 'failed', answer: 'y' },
    ]);
    const c = await compareRuns(store, ['run-a', 'run-b']);
    expect(c.rows.map((r) => r.id)).toEqual(['q0', 'q1']);
    expect(c.confirmationsIgnored).toBe(1);
    expect(c.rows[0]?.cells[1]?.repeats).toEqual({ passed: 1, graded: 2 });
    expect(c.rows[1]?.cells[1]?.repeats).toEqual({ passed: 2, graded: 2 });
    // run-a has no repeats: its cells count their one answer. q0: 1 of 1 against 1 of 2 (a wins); q1: 0 of 1 against 2 of 2.
    expect(c.rows[0]?.cells[0]?.repeats).toBeUndefined();
    expect(c.pairs[0]).toMatchObject({ wins: 1, ties: 0, losses: 1, test: 'cmh' });
    // Both strata are informative; by hand: q0 expected a passes 1·2/3, excess 1/3, variance 1·2·2·1/(9·2) = 2/9;
    // q1 expected 1·2/3, excess −2/3, variance 1·2·2·1/(9·2) = 2/9. Σ excess −1/3, |−1/3| − ½ < 0 → statistic 0, p 1.
    expect(c.pairs[0]?.pValue).toBe(1);
    expect(c.pairs[0]?.mcnemar).toMatchObject({ b: 0, c: 1 });
    // b's pass rate is over its 4 answers (3 passed), clustered by row.
    expect(c.stats[1]).toMatchObject({ passRate: 0.75, answers: 4, repeat: 2 });
    expect(c.stats[0]).toMatchObject({ passRate: 0.5 });
    expect(c.stats[0]?.answers).toBeUndefined();
    expect(c.conclusion).toMatch(/No significant difference \(Cochran–Mantel–Haenszel over repeats/);
  });
});
