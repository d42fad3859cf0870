import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeRun } from '../../src/regrade/gradeRun';
import { openRunInput } from '../../src/regrade/runInput';
import type { RowResult } from '../../src/domain/results';
import type { RunResult } from '../../src/domain/run';
import { readResults, startRun } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

const DEMO_CSV = join(__dirname, '..', '..', 'datasets', 'demo.csv');

/** What grading decides for a row; times and feedback differ by design between a run and a re-grade. */
function verdictOf(row: RowResult): unknown {
  return { id: row.id, outcome: row.outcome, answer: row.answer, assertions: row.assertions, error: row.error };
}

describe('sitechat grade re-grades a run exactly as the run graded it (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('same answers, same outcomes and assertions, and no request to the API', async () => {
    const dataset = join(stack.runsDir, 'demo.csv');
    copyFileSync(DEMO_CSV, dataset);
    const custom = join(stack.runsDir, 'long-enough.mjs');
    writeFileSync(custom, 'export function grade(row, answer) { return { pass: answer.answer.length > 60, reason: `length ${answer.answer.length}` }; }\n');
    const config = { assertions: [{ type: 'custom' as const, module: custom }], thresholds: { f1: 0.4 } };
    const handle = await startRun(stack, dataset, { assertions: config.assertions, thresholds: config.thresholds });
    const run = await handle.result() as RunResult;
    const ran = readResults(run.reportDir);
    expect(ran.some((r) => r.outcome === 'passed') && ran.some((r) => r.outcome === 'failed')).toBe(true);

    const before = await stack.sim.stats();
    const input = await openRunInput(run.reportDir);
    expect(input.issues).toEqual([]);
    const graded = await gradeRun(input, { runsDir: stack.runsDir, runId: 'regrade-1', config });
    const after = await stack.sim.stats();
    expect(after.requests).toEqual(before.requests);

    const regraded = readResults(graded.outDir);
    expect(regraded.map(verdictOf)).toEqual(ran.map(verdictOf));
    expect(graded.summary.passed).toBe(run.summary.passed);
    expect(graded.summary.failed).toBe(run.summary.failed);
    expect(graded.summary.siteId).toBe(run.summary.siteId);
    // Re-grading sends no feedback, so it records none.
    expect(regraded.every((r) => r.feedback === undefined)).toBe(true);
    expect(input.warnings).toEqual([]);
  });
});
