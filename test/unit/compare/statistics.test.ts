import { describe, expect, it } from 'vitest';
import { bestVariant, holmAdjust, pairStats, variantStats } from '../../../src/analysis/compare/statistics';
import { wilsonInterval } from '../../../src/analysis/stats';
import type { Cell, ComparedRow } from '../../../src/analysis/compare/types';

function row(id: string, ...outcomes: (Cell['outcome'] | undefined)[]): ComparedRow {
  return { id, index: Number(id.slice(1)), question: `${id}?`, cells: outcomes.map((o, i) => (o ? { outcome: o, answer: `${id}-${i}`, latencyMs: 100 * (i + 1) } : undefined)), disagree: false };
}

describe('comparison statistics', () => {
  it('Wilson interval matches the textbook value and stays inside [0, 1]', () => {
    const [lo, hi] = wilsonInterval(8, 10) ?? [NaN, NaN];
    expect(lo).toBeCloseTo(0.4902, 4);
    expect(hi).toBeCloseTo(0.9433, 4);
    expect(wilsonInterval(10, 10)?.[1]).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 10)?.[0]).toBe(0);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('Holm multiplies the k-th smallest p by (m − k + 1) and keeps the order monotone', () => {
    expect(holmAdjust([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('counts wins, ties and losses over rows both graded; others stay out of the pair', () => {
    const rows = [row('q1', 'passed', 'failed'), row('q2', 'passed', 'passed'), row('q3', 'failed', 'passed'), row('q4', 'passed', 'error'), row('q5', 'uncertain', 'passed'), row('q6', 'passed', undefined)];
    const [pair] = pairStats(rows, 2);
    expect(pair).toMatchObject({ a: 0, b: 1, wins: 1, ties: 1, losses: 1 });
    expect(pair?.mcnemar.pValue).toBe(1);
    const a = variantStats(rows, 0);
    expect(a).toMatchObject({ decided: 5, passed: 4, uncertain: 1, errors: 0, missing: 0, latencyP50: 100 });
    const b = variantStats(rows, 1);
    expect(b).toMatchObject({ decided: 4, passed: 3, errors: 1, missing: 1 });
  });

  it('with repeats, compares the rows\' k of N with Cochran–Mantel–Haenszel, where one answer each would not be significant', () => {
    // 8 rows: A passes 3 of 3 answers, B 1 of 3 (first answers: A passed, B failed on 4 rows, the same on 4).
    const repeated = (id: string, aFirst: Cell['outcome'], bFirst: Cell['outcome']): ComparedRow => {
      const r = row(id, aFirst, bFirst);
      (r.cells[0] as Cell).repeats = { passed: 3, graded: 3 };
      (r.cells[1] as Cell).repeats = { passed: 1, graded: 3 };
      return r;
    };
    const rows = [...Array.from({ length: 4 }, (_, i) => repeated(`q${i}`, 'passed', 'failed')), ...Array.from({ length: 4 }, (_, i) => repeated(`q${i + 4}`, 'passed', 'passed'))];
    const [pair] = pairStats(rows, 2);
    // McNemar on the 4 discordant first answers: p = 2 · (1/2)^4 = 0.125, not significant.
    expect(pair?.mcnemar.pValue).toBeCloseTo(0.125, 10);
    // CMH by hand, per row: n = 3 + 3, passes 4, fails 2; E[A's passes] = 3·4/6 = 2, excess 1; variance 3·3·4·2/(36·5) = 0.4.
    // 8 rows: excess 8, variance 3.2, statistic (8 − ½)² / 3.2 = 17.58, p ≈ 2.8e-5.
    expect(pair).toMatchObject({ test: 'cmh', wins: 8, ties: 0, losses: 0, better: 'a', significant: true });
    expect(pair?.cmh?.statistic).toBeCloseTo(56.25 / 3.2, 6);
    expect(pair?.pValue).toBeLessThan(1e-4);
    expect(bestVariant(pairStats(rows, 2), 2)).toBe(0);
    const b = variantStats(rows, 1);
    expect(b).toMatchObject({ decided: 8, passed: 4, answers: 24, repeat: 3 });
    expect(b.passRate).toBeCloseTo(1 / 3, 10);
  });

  it('names a best variant only when it beats every other one after Holm', () => {
    // 20 rows where A passes and B and C fail, plus 20 where all pass: A beats both; B and C tie.
    const rows = [
      ...Array.from({ length: 20 }, (_, i) => row(`q${i}`, 'passed', 'failed', 'failed')),
      ...Array.from({ length: 20 }, (_, i) => row(`q${20 + i}`, 'passed', 'passed', 'passed')),
    ];
    const pairs = pairStats(rows, 3);
    expect(pairs.map((p) => [p.a, p.b, p.significant])).toEqual([[0, 1, true], [0, 2, true], [1, 2, false]]);
    expect(bestVariant(pairs, 3)).toBe(0);
    // Five discordant rows are not enough (exact p = 0.0625): no best variant.
    const few = [...Array.from({ length: 5 }, (_, i) => row(`q${i}`, 'passed', 'failed')), row('q9', 'passed', 'passed')];
    expect(bestVariant(pairStats(few, 2), 2)).toBeNull();
  });
});
