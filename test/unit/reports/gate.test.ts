import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../src/reports/gate';
import { mcnemarExact } from '../../../src/reports/stats';
import { summarize } from '../../../src/reports/summary';
import type { BaselineComparison, RunSummary } from '../../../src/reports/types';
import { iterate, meta, row } from './fixtures';

async function summary(passed: number, failed: number, extra: Partial<RunSummary> = {}): Promise<RunSummary> {
  const rows = [...Array.from({ length: passed }, () => 'passed' as const), ...Array.from({ length: failed }, () => 'failed' as const)];
  return { ...(await summarize(meta(), iterate(rows.map((outcome, i) => row(i, { outcome }))))), ...extra };
}

function comparison(regressed: number, fixed: number): BaselineComparison {
  return {
    runId: 'base',
    passRate: 0.9,
    delta: -0.1,
    compared: 100,
    regressed: Array.from({ length: regressed }, (_, i) => `r${i}`),
    fixed: Array.from({ length: fixed }, (_, i) => `f${i}`),
    mcnemar: mcnemarExact(regressed, fixed),
  };
}

describe('evaluateGate', () => {
  it('passes a clean run without thresholds', async () => {
    expect(evaluateGate(await summary(5, 5), { baselineGiven: false })).toEqual({ passed: true, reasons: [], warnings: [] });
  });

  it('fails under the minimum pass rate, and when nothing was graded', async () => {
    expect(evaluateGate(await summary(8, 2), { failUnder: 0.8, baselineGiven: false }).passed).toBe(true);
    const low = evaluateGate(await summary(7, 3), { failUnder: 0.8, baselineGiven: false });
    expect(low).toMatchObject({ passed: false, reasons: ['pass rate 70.0% is below 80.0%'] });
    expect(evaluateGate(await summary(0, 0), { failUnder: 0.5, baselineGiven: false }).reasons[0]).toMatch(/no row was graded/);
    expect(() => evaluateGate({ passRate: 1 } as RunSummary, { failUnder: 80, baselineGiven: false })).toThrow(/`failUnder` must be a fraction/);
  });

  it('fails on a significant regression and lists the rows', async () => {
    const gate = evaluateGate(await summary(90, 10, { baseline: comparison(10, 2) }), { baselineGiven: true });
    expect(gate.passed).toBe(false);
    expect(gate.reasons[0]).toMatch(/significant regression against base \(McNemar p = 0\.0386\): 10 rows regressed, 2 fixed: r0, r1, .* r9$/);
  });

  it('only warns about regressions within noise', async () => {
    const gate = evaluateGate(await summary(90, 10, { baseline: comparison(3, 1) }), { baselineGiven: true });
    expect(gate).toMatchObject({ passed: true, reasons: [] });
    expect(gate.warnings[0]).toMatch(/^3 rows regressed against base, within noise \(McNemar p = 0\.625, 1 fixed\): r0, r1, r2$/);
  });

  it('does not fail a significant improvement', async () => {
    expect(evaluateGate(await summary(9, 1, { baseline: comparison(2, 10) }), { baselineGiven: true })).toMatchObject({ passed: true, reasons: [] });
  });

  it('caps the listed ids', async () => {
    const gate = evaluateGate(await summary(1, 1, { baseline: comparison(30, 0) }), { baselineGiven: true });
    expect(gate.reasons[0]).toMatch(/r19 … 10 more$/);
  });

  it('fails when a requested baseline is missing, rows are missing or too many rows errored', async () => {
    expect(evaluateGate(await summary(1, 0), { baselineGiven: true }).reasons).toEqual(['a baseline was requested but no comparison was made']);
    expect(evaluateGate(await summary(1, 0, { missing: 2 }), { baselineGiven: false }).reasons).toEqual(['2 dataset rows have no result']);
    const errored = await summary(8, 0, { total: 10, error: 1, timedOut: 1 });
    expect(evaluateGate(errored, { baselineGiven: false, maxErrorRate: 0.2 }).passed).toBe(true);
    expect(evaluateGate(errored, { baselineGiven: false, maxErrorRate: 0.1 }).reasons).toEqual(['2 rows errored or timed out (20.0%), above 10.0%']);
  });
});
