/** The figures of a comparison: intervals, paired tests and their correction for many pairs. */
import { clusteredPassRate, cochranMantelHaenszel, type RowCounts, type Stratum } from '../repeatStats';
import { DEFAULT_ALPHA, mcnemarExact, percentile, wilsonInterval } from '../stats';
import { Outcome } from '../../domain/results';
import type { Cell, ComparedRow, PairStats, VariantStats } from './types';

/**
 * Holm's step-down adjustment: controls the chance of any false "significant" across all pairs (family-wise error)
 * without Bonferroni's loss of power. Returns adjusted p-values in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

export function isDecided(cell: Cell | undefined): cell is Cell & { outcome: 'passed' | 'failed' } {
  return cell?.outcome === Outcome.passed || cell?.outcome === Outcome.failed;
}

/** One variant's figures over the rows of the comparison. */
export function variantStats(rows: readonly ComparedRow[], v: number): VariantStats {
  let decided = 0;
  let passed = 0;
  let uncertain = 0;
  let errors = 0;
  let missing = 0;
  const latencies: number[] = [];
  const confidences: number[] = [];
  for (const row of rows) {
    const cell = row.cells[v];
    if (!cell) {
      missing++;
      continue;
    }
    if (isDecided(cell)) {
      decided++;
      if (cell.outcome === Outcome.passed) passed++;
    } else if (cell.outcome === Outcome.uncertain) uncertain++;
    else if (cell.outcome === Outcome.error || cell.outcome === Outcome.timedOut) errors++;
    if (cell.latencyMs !== undefined && cell.answer !== undefined) latencies.push(cell.latencyMs);
    if (cell.confidenceScore !== undefined) confidences.push(cell.confidenceScore);
  }
  latencies.sort((a, b) => a - b);
  confidences.sort((a, b) => a - b);
  return {
    decided, passed, ...rateOf(rows, v, passed, decided), uncertain, errors, missing,
    latencyP50: percentile(latencies, 50), latencyP95: percentile(latencies, 95),
    confidence: confidences.length
      ? { mean: confidences.reduce((s, x) => s + x, 0) / confidences.length, median: percentile(confidences, 50) ?? 0, min: confidences[0] ?? 0, max: confidences[confidences.length - 1] ?? 0 }
      : null,
  };
}

/** The pass rate and its interval: of the first answers, or with repeats over every answer, clustered by row. */
function rateOf(rows: readonly ComparedRow[], v: number, passed: number, decided: number): Pick<VariantStats, 'passRate' | 'interval' | 'repeat' | 'answers'> {
  const counts = rows.flatMap((row) => (row.cells[v]?.repeats ? [row.cells[v].repeats] : []));
  if (counts.length === 0) return { passRate: decided ? passed / decided : null, interval: wilsonInterval(passed, decided) };
  const rate = clusteredPassRate(counts);
  const repeat = Math.max(...counts.map((c) => c.graded));
  if (!rate) return { passRate: null, interval: null, repeat, answers: 0 };
  return { passRate: rate.passRate, interval: [rate.low, rate.high], repeat, answers: rate.answers };
}

/** A cell's answers as counts: all its repeats', or its one graded answer. */
function countsOf(cell: Cell | undefined): RowCounts {
  if (cell?.repeats) return cell.repeats;
  return isDecided(cell) ? { passed: cell.outcome === Outcome.passed ? 1 : 0, graded: 1 } : { passed: 0, graded: 0 };
}

/**
 * Every pair of variants over the rows both graded (passed or failed): wins, ties, losses and the exact McNemar
 * test on the discordant rows — the test for two graders of the same rows — then Holm across the pairs. When either
 * run asked its rows more than once, the pair's p is the Cochran–Mantel–Haenszel test over every answer with each
 * row a stratum (what the gate uses with repeats; with one answer a side it is McNemar with continuity correction),
 * and wins and losses compare the rows' pass rates.
 */
export function pairStats(rows: readonly ComparedRow[], variants: number, alpha = DEFAULT_ALPHA): PairStats[] {
  const pairs: Omit<PairStats, 'adjustedP' | 'significant'>[] = [];
  for (let a = 0; a < variants; a++) {
    for (let b = a + 1; b < variants; b++) {
      let firstWins = 0;
      let firstLosses = 0;
      let wins = 0;
      let ties = 0;
      let losses = 0;
      const strata: Stratum[] = [];
      const repeated = rows.some((row) => row.cells[a]?.repeats !== undefined || row.cells[b]?.repeats !== undefined);
      for (const row of rows) {
        if (row.mismatched) continue;
        const x = row.cells[a];
        const y = row.cells[b];
        if (isDecided(x) && isDecided(y) && x.outcome !== y.outcome) {
          if (x.outcome === Outcome.passed) firstWins++;
          else firstLosses++;
        }
        // With repeats a row counts when both runs graded some answer of it; without, when both graded the first.
        const cx = countsOf(x);
        const cy = countsOf(y);
        if (cx.graded === 0 || cy.graded === 0) continue;
        strata.push({ baseline: cx, run: cy });
        const diff = cx.passed / cx.graded - cy.passed / cy.graded;
        if (diff > 0) wins++;
        else if (diff < 0) losses++;
        else ties++;
      }
      const mcnemar = mcnemarExact(firstWins, firstLosses, alpha);
      if (!repeated) {
        pairs.push({ a, b, wins, ties, losses, test: 'mcnemar', pValue: mcnemar.pValue, better: wins > losses ? 'a' : losses > wins ? 'b' : null, mcnemar });
        continue;
      }
      // The stratum's "baseline" is a: a positive excess means a passed more than chance says.
      const cmh = cochranMantelHaenszel(strata);
      pairs.push({ a, b, wins, ties, losses, test: 'cmh', pValue: cmh.pValue, better: cmh.excess > 0 ? 'a' : cmh.excess < 0 ? 'b' : null, mcnemar, cmh });
    }
  }
  const adjusted = holmAdjust(pairs.map((p) => p.pValue));
  return pairs.map((p, i) => ({ ...p, adjustedP: adjusted[i] ?? 1, significant: (adjusted[i] ?? 1) < alpha }));
}

/** The variant that beats every other one significantly (after Holm), or null. */
export function bestVariant(pairs: readonly PairStats[], variants: number): number | null {
  for (let v = 0; v < variants; v++) {
    const beatsAll = pairs.filter((p) => p.a === v || p.b === v).every((p) => p.significant && p.better === (p.a === v ? 'a' : 'b'));
    if (beatsAll && variants > 1) return v;
  }
  return null;
}
