import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../../src/cli/follow/summaryTable';
import { wilsonInterval } from '../../../src/analysis/stats';
import type { BaselineInput } from '../../../src/analysis/baseline';
import { evaluateGate } from '../../../src/analysis/gate';
import { renderMarkdown } from '../../../src/render/markdown';
import { chiSquare1Tail, clusteredPassRate, cochranMantelHaenszel } from '../../../src/analysis/repeatStats';
import { RepeatTally } from '../../../src/analysis/repeatTally';
import { summarize } from '../../../src/analysis/summary';
import type { Outcome, RowResult } from '../../../src/domain/results';
import { iterate, meta, row } from './fixtures';

/** `rows` dataset rows, each asked `n` times; `passes(i)` of row i's repeats pass (the first ones). */
function repeated(rows: number, n: number, passes: (i: number) => number): RowResult[] {
  return Array.from({ length: rows }, (_, i) => Array.from({ length: n }, (_, r) => row(i, {
    id: r === 0 ? `r${i}` : `r${i}#r${r + 1}`, baseId: `r${i}`, repeat: r + 1,
    outcome: (r < passes(i) ? 'passed' : 'failed') as Outcome, answer: `answer ${i}.${r + 1}`,
  }))).flat();
}

function baselineOf(rows: RowResult[]): BaselineInput {
  const tally = new RepeatTally(false);
  for (const r of rows) tally.add(r);
  const passed = rows.filter((r) => r.outcome === 'passed').length;
  return {
    runId: 'base', passRate: passed / rows.length, outcomes: new Map(rows.map((r) => [r.id, r.outcome])),
    ...(tally.repeat > 1 && { repeated: { repeat: tally.repeat, rows: tally.counts() } }),
  };
}

describe('repeat statistics', () => {
  it('CMH with one answer per row on both sides is McNemar with continuity correction', () => {
    // 7 rows passed then failed, 2 the other way round, 20 concordant.
    const strata = [
      ...Array.from({ length: 7 }, () => ({ baseline: { passed: 1, graded: 1 }, run: { passed: 0, graded: 1 } })),
      ...Array.from({ length: 2 }, () => ({ baseline: { passed: 0, graded: 1 }, run: { passed: 1, graded: 1 } })),
      ...Array.from({ length: 20 }, (_, i) => ({ baseline: { passed: i % 2, graded: 1 }, run: { passed: i % 2, graded: 1 } })),
    ];
    const cmh = cochranMantelHaenszel(strata);
    expect(cmh.informative).toBe(9);
    expect(cmh.statistic).toBeCloseTo((Math.abs(7 - 2) - 1) ** 2 / 9, 10);
    expect(cmh.pValue).toBeCloseTo(chiSquare1Tail(16 / 9), 10);
    // χ²₁ tail at 3.841 is 0.05.
    expect(chiSquare1Tail(3.841458820694124)).toBeCloseTo(0.05, 6);
  });

  it('CMH takes different numbers of answers per row on each side', () => {
    const strata = Array.from({ length: 30 }, () => ({ baseline: { passed: 1, graded: 1 }, run: { passed: 1, graded: 3 } }));
    const cmh = cochranMantelHaenszel(strata);
    expect(cmh.excess).toBeGreaterThan(0);
    expect(cmh.pValue).toBeLessThan(0.001);
  });

  it('the clustered interval is the plain Wilson interval with one answer per row, and counts rows when repeats agree', () => {
    const single = clusteredPassRate(Array.from({ length: 40 }, (_, i) => ({ passed: i < 30 ? 1 : 0, graded: 1 })));
    const [low, high] = wilsonInterval(30, 40) ?? [0, 0];
    expect(single).toMatchObject({ passRate: 0.75, rows: 40, answers: 40 });
    expect(single?.effectiveN).toBeCloseTo(40, 10);
    expect(single?.low).toBeCloseTo(low, 10);
    expect(single?.high).toBeCloseTo(high, 10);
    // Three identical answers per row are worth one each: the interval must not narrow.
    const agreeing = clusteredPassRate(Array.from({ length: 40 }, (_, i) => ({ passed: i < 30 ? 3 : 0, graded: 3 })));
    expect(agreeing?.effectiveN).toBeCloseTo(40, 10);
    expect(agreeing?.low).toBeCloseTo(low, 10);
    // Independent-looking repeats (each row 2 of 4) are worth up to every answer.
    const mixed = clusteredPassRate(Array.from({ length: 40 }, () => ({ passed: 2, graded: 4 })));
    expect(mixed?.effectiveN).toBe(160);
    // All pass: not an empty interval.
    const all = clusteredPassRate(Array.from({ length: 10 }, () => ({ passed: 3, graded: 3 })));
    expect(all?.high).toBeCloseTo(1, 10);
    expect(all?.low).toBeLessThan(0.8);
  });
});

describe('summaries of runs with repeats', () => {
  it("gives each row's k of N, the flaky rows with their answers, and the clustered interval", async () => {
    // rows 0-5 pass 3/3, rows 6-7 pass 1/3, rows 8-9 fail 0/3.
    const rows = repeated(10, 3, (i) => (i < 6 ? 3 : i < 8 ? 1 : 0));
    const s = await summarize(meta({ rowCount: 30 }), iterate(rows));
    expect(s).toMatchObject({ total: 30, graded: 30, passed: 20, missing: 0 });
    expect(s.repeats).toMatchObject({ n: 3, rows: 10, allPassed: 6, allFailed: 2, flaky: 2, ungraded: 0, kOfN: { '3/3': 6, '1/3': 2, '0/3': 2 } });
    expect(s.repeats?.flakyRows.map((f) => [f.id, f.passed, f.graded, f.answers.map((a) => [a.repeat, a.outcome, a.answer])])).toEqual([
      ['r6', 1, 3, [[1, 'passed', 'answer 6.1'], [2, 'failed', 'answer 6.2'], [3, 'failed', 'answer 6.3']]],
      ['r7', 1, 3, [[1, 'passed', 'answer 7.1'], [2, 'failed', 'answer 7.2'], [3, 'failed', 'answer 7.3']]],
    ]);
    expect(s.repeats?.passRate?.value).toBeCloseTo(20 / 30, 10);
    expect(s.repeats?.passRate?.effectiveN).toBeGreaterThanOrEqual(10);
    expect(s.repeats?.passRate?.effectiveN).toBeLessThan(30);
  });

  it('has no repeats section without repeats', async () => {
    const s = await summarize(meta(), iterate([row(0), row(1, { outcome: 'failed' })]));
    expect(s.repeats).toBeUndefined();
  });
});

describe('the gate with repeats', () => {
  const gate = (s: Parameters<typeof evaluateGate>[0]) => evaluateGate(s, { baselineGiven: true });

  it('fails when the per-row pass rates fall significantly and by more than the minimum drop', async () => {
    const before = repeated(60, 3, () => 3);
    const after = repeated(60, 3, (i) => (i < 15 ? 0 : 3));
    const s = await summarize(meta({ rowCount: 180 }), iterate(after), baselineOf(before));
    expect(s.baseline?.repeated).toMatchObject({ baselineRepeat: 3, runRepeat: 3, rows: 60, informative: 15, significant: true });
    expect(s.baseline?.repeated?.drop).toBeCloseTo(0.25, 10);
    expect(s.baseline?.regressed).toHaveLength(15);
    expect(s.baseline?.regressed[0]).toBe('r0');
    const g = gate(s);
    expect(g.verdict).toBe('failed');
    expect(g.reasons.join('\n')).toMatch(/significant regression against base \(CMH p = .*, mean per-row pass rate down 25\.0 points; 3 vs 3 answers per row\): 15 rows fell, 0 rose: r0, r1/);
  });

  it('only warns on a significant drop below the minimum effect size', async () => {
    // 800 rows; 24 drop from 3/3 to 0/3 → 3 points: the test sees it, the minimum does not let it fail.
    const before = repeated(800, 3, () => 3);
    const after = repeated(800, 3, (i) => (i < 24 ? 0 : 3));
    const s = await summarize(meta(), iterate(after), baselineOf(before));
    expect(s.baseline?.repeated?.pValue).toBeLessThan(0.05);
    expect(s.baseline?.repeated?.significant).toBe(false);
    const g = gate(s);
    expect(g.verdict).toBe('passed');
    expect(g.warnings.join('\n')).toMatch(/24 rows fell against base, below the 5\.0-point minimum drop/);
  });

  it('compares a run with repeats against a baseline without them, row by row', async () => {
    const before = Array.from({ length: 40 }, (_, i) => row(i));
    const after = repeated(40, 3, (i) => (i < 2 ? 2 : 3));
    const s = await summarize(meta(), iterate(after), baselineOf(before));
    expect(s.baseline?.repeated).toMatchObject({ baselineRepeat: 1, runRepeat: 3, rows: 40, informative: 2, significant: false });
    expect(s.baseline?.regressed).toEqual(['r0', 'r1']);
    expect(gate(s).verdict).toBe('passed');
  });
});

describe('reports of runs with repeats', () => {
  it('Markdown shows the k of N table and the flaky rows with each answer; the CLI summary the same figures', async () => {
    const rows = repeated(4, 3, (i) => [3, 2, 0, 3][i] ?? 0);
    const s = await summarize(meta({ rowCount: 12 }), iterate(rows));
    const md = await renderMarkdown(s, iterate(rows));
    expect(md).toContain('## Repeats (3 answers per row)');
    expect(md).toContain('4 rows asked 3 times: 2 all passed, 1 flaky (their answers disagree), 1 all failed.');
    expect(md).toContain('| 3/3 | 2 |');
    expect(md).toContain('| 2/3 | 1 |');
    expect(md).toContain('| 0/3 | 1 |');
    expect(md).toMatch(/\*\*r1\*\* — 2 of 3 passed: Question 1\?\n\n- repeat 1, passed: answer 1\.1\n- repeat 2, passed: answer 1\.2\n- repeat 3, failed: answer 1\.3/);
    const cli = summaryTable(s);
    expect(cli).toMatch(/repeats {4}4 rows asked 3 times: 2 all passed, 1 flaky/);
    expect(cli).toMatch(/rows by passes: 3\/3 2, 2\/3 1, 0\/3 1/);
    expect(cli).toMatch(/pass rate 66\.7% of 12 answers \(95% CI \d+\.\d%–\d+\.\d%, counted over 4 rows/);
  });
});
