/**
 * Statistics for runs with `--repeat`: an interval for the pass rate when answers come in clusters (the repeats of a
 * row), and the Cochran–Mantel–Haenszel test of a run against its baseline with each row as a stratum.
 * docs/reports.md ("Repeats") says why these and not others.
 */
import { wilsonInterval } from './stats';

/** Passed and graded (passed + failed) answers of one row, over its repeats. */
export interface RowCounts {
  passed: number;
  graded: number;
}

/** The pass rate of clustered answers and its 95 % interval. */
export interface ClusteredRate {
  passRate: number;
  low: number;
  high: number;
  /** Rows (clusters) with a graded answer. */
  rows: number;
  /** Graded answers. */
  answers: number;
  /** Independent answers the interval is worth (Kish's effective sample size), between `rows` and `answers`. */
  effectiveN: number;
}

/**
 * Pass rate Σk/Σn over rows with a Wilson interval at the effective sample size of the clustered answers.
 *
 * Repeats of one row are not independent (the same question fails for the same reason), so treating N·R answers as
 * N·R coin flips makes the interval too narrow. The rows are the independent units: the ratio estimator's
 * variance over rows, Σ(k_i − p·n_i)² / (Σn_i)², is the cluster-robust (linearisation) variance of p, and
 * p(1 − p) / that variance is the number of independent answers it is worth. That number is at least R (answers of a
 * row agree at most completely) and at most Σn (they are at most independent), and with one answer per row it is
 * exactly R: the interval is then the plain Wilson interval. Wilson rather than p ± t·se keeps the interval inside
 * [0, 1] and not empty at 0 % or 100 % (where the variance is 0 and R is used).
 */
export function clusteredPassRate(rows: Iterable<RowCounts>): ClusteredRate | null {
  let passed = 0;
  let answers = 0;
  let clusters = 0;
  const kept: RowCounts[] = [];
  for (const row of rows) {
    if (row.graded === 0) continue;
    passed += row.passed;
    answers += row.graded;
    clusters++;
    kept.push(row);
  }
  if (answers === 0) return null;
  const p = passed / answers;
  let sum = 0;
  for (const row of kept) sum += (row.passed - p * row.graded) ** 2;
  const variance = sum / (answers * answers);
  // No spread between rows: at 0 % or 100 % nothing is known beyond the rows themselves (R); strictly inside, the rows
  // agree better than independent answers would, and every answer counts.
  const raw = variance > 0 ? (p * (1 - p)) / variance : p === 0 || p === 1 ? clusters : answers;
  const effectiveN = Math.min(answers, Math.max(clusters, raw));
  const [low, high] = wilsonInterval(p * effectiveN, effectiveN) ?? [0, 1];
  return { passRate: p, low, high, rows: clusters, answers, effectiveN };
}

/** One stratum (row) of the Cochran–Mantel–Haenszel test: its answers in the baseline and in the run. */
export interface Stratum {
  baseline: RowCounts;
  run: RowCounts;
}

export interface CmhResult {
  /** Continuity-corrected CMH χ² (1 degree of freedom). */
  statistic: number;
  pValue: number;
  /** Rows that carry information: graded in both runs, not all-pass or all-fail across both. */
  informative: number;
  /** Σ(baseline passes − expected): positive when the baseline passed more than chance says, i.e. the run is worse. */
  excess: number;
}

/**
 * Cochran–Mantel–Haenszel test over strata of 2×2 tables (run × pass/fail), one per row: it pairs each row with
 * itself, as McNemar does, but takes any number of answers per row on either side (different `--repeat`s).
 * With one answer per row on both sides it is McNemar's test with continuity correction, (|b − c| − 1)² / (b + c).
 */
export function cochranMantelHaenszel(strata: Iterable<Stratum>): CmhResult {
  let excess = 0;
  let variance = 0;
  let informative = 0;
  for (const { baseline, run } of strata) {
    const total = baseline.graded + run.graded;
    const passes = baseline.passed + run.passed;
    const fails = total - passes;
    if (baseline.graded === 0 || run.graded === 0 || passes === 0 || fails === 0) continue;
    informative++;
    excess += baseline.passed - (baseline.graded * passes) / total;
    variance += (baseline.graded * run.graded * passes * fails) / (total * total * (total - 1));
  }
  if (variance === 0) return { statistic: 0, pValue: 1, informative, excess };
  const statistic = Math.max(0, Math.abs(excess) - 0.5) ** 2 / variance;
  return { statistic, pValue: chiSquare1Tail(statistic), informative, excess };
}

/** P(χ²₁ ≥ x) = erfc(√(x/2)). */
export function chiSquare1Tail(x: number): number {
  return x <= 0 ? 1 : erfc(Math.sqrt(x / 2));
}

/** Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}
