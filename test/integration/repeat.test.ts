import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/reports/types';
import type { RunResult } from '../../workflows/types';
import { DEMO_HEADER, readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

describe('--repeat (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('asks every conversation 3 times in fresh sessions and grades each answer; the summary gives each row k of 3', async () => {
    const dataset = writeDataset(stack, DEMO_HEADER, [
      'r1,,,How much does the Personal plan cost?,$9.99',
      'r2,,,How much storage do I get for free?,5 GB',
      'r3,,,What is the airspeed of an unladen swallow?,swallow',
      't1,c1,1,How much does the Personal plan cost?,$9.99',
      't2,c1,2,And how much storage comes with it?,GB',
    ]);
    const { summary, reportDir } = (await (await startRun(stack, dataset, { repeat: 3 })).result()) as RunResult;
    const results = readResults(reportDir);
    expect(results).toHaveLength(15);
    expect(stack.sim.stats().submitted).toBe(15);
    const byRow = new Map<string | undefined, typeof results>();
    for (const r of results) byRow.set(r.baseId, [...(byRow.get(r.baseId) ?? []), r]);
    expect([...byRow.keys()].sort()).toEqual(['r1', 'r2', 'r3', 't1', 't2']);
    for (const [id, answers] of byRow) {
      expect(answers.map((a) => [a.id, a.repeat]).sort((x, y) => Number(x[1]) - Number(y[1]))).toEqual([[id, 1], [`${id}#r2`, 2], [`${id}#r3`, 3]]);
      for (const a of answers) expect(['passed', 'failed']).toContain(a.outcome);
    }
    // Each repeat its own session; the turns of one repeat of the conversation share theirs.
    const sessionOf = (id: string): string | undefined => results.find((r) => r.id === id)?.sessionId;
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(12);
    for (const suffix of ['', '#r2', '#r3']) expect(sessionOf(`t1${suffix}`)).toBe(sessionOf(`t2${suffix}`));
    expect(summary).toMatchObject({ total: 15, missing: 0, graded: 15, sessions: { opened: 12, closed: 12 } });
    const repeats = summary.repeats;
    expect(repeats).toMatchObject({ n: 3, rows: 5, ungraded: 0 });
    expect(Object.values(repeats?.kOfN ?? {}).reduce((a, b) => a + b, 0)).toBe(5);
    expect((repeats?.allPassed ?? 0) + (repeats?.allFailed ?? 0) + (repeats?.flaky ?? 0)).toBe(5);
    expect(repeats?.passRate?.value).toBeCloseTo(summary.passed / 15, 10);
    const onDisk = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
    expect(onDisk.repeats).toEqual(repeats);
    expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain('## Repeats (3 answers per row)');
  });

  it('a run without --repeat keeps its rows and summary as they were', async () => {
    const dataset = writeDataset(stack, DEMO_HEADER, ['r1,,,How much does the Personal plan cost?,$9.99']);
    const { summary, reportDir } = (await (await startRun(stack, dataset)).result()) as RunResult;
    const [only] = readResults(reportDir);
    expect(only).not.toHaveProperty('baseId');
    expect(only).not.toHaveProperty('repeat');
    expect(summary.repeats).toBeUndefined();
    expect(stack.sim.stats().submitted).toBe(1);
  });
});
