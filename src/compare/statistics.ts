/** The figures of a comparison: intervals, paired tests and their correction for many pairs. */
import { DEFAULT_ALPHA, mcnemarExact, percentile } from '../reports/stats';
import { Outcome } from '../reports/types';
import type { Cell, ComparedRow, PairStats, VariantStats } from './types';

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval of k successes in n: unlike the normal approximation it stays inside [0, 1] and is honest
 * near 0 % and 100 %, where pass rates of good assistants live.
 */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

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
    decided, passed, passRate: decided ? passed / decided : null, interval: wilsonInterval(passed, decided), uncertain, errors, missing,
    latencyP50: percentile(latencies, 50), latencyP95: percentile(latencies, 95),
    confidence: confidences.length
      ? { mean: confidences.reduce((s, x) => s + x, 0) / confidences.length, median: percentile(confidences, 50) ?? 0, min: confidences[0] ?? 0, max: confidences[confidences.length - 1] ?? 0 }
      : null,
  };
}

/**
 * Every pair of variants over the rows both graded (passed or failed): wins, ties, losses and the exact McNemar
 * test on the discordant rows — the test for two graders of the same rows — then Holm across the pairs.
 */
export function pairStats(rows: readonly ComparedRow[], variants: number, alpha = DEFAULT_ALPHA): PairStats[] {
  const pairs: Omit<PairStats, 'adjustedP' | 'significant'>[] = [];
  for (let a = 0; a < variants; a++) {
    for (let b = a + 1; b < variants; b++) {
      let wins = 0;
      let ties = 0;
      let losses = 0;
      for (const row of rows) {
        if (row.mismatched) continue;
        const x = row.cells[a];
        const y = row.cells[b];
        if (!isDecided(x) || !isDecided(y)) continue;
        if (x.outcome === y.outcome) ties++;
        else if (x.outcome === Outcome.passed) wins++;
        else losses++;
      }
      pairs.push({ a, b, wins, ties, losses, mcnemar: mcnemarExact(wins, losses, alpha) });
    }
  }
  const adjusted = holmAdjust(pairs.map((p) => p.mcnemar.pValue));
  return pairs.map((p, i) => ({ ...p, adjustedP: adjusted[i] ?? 1, significant: (adjusted[i] ?? 1) < alpha }));
}

/** The variant that beats every other one significantly (after Holm), or null. */
export function bestVariant(pairs: readonly PairStats[], variants: number): number | null {
  for (let v = 0; v < variants; v++) {
    const beatsAll = pairs.filter((p) => p.a === v || p.b === v).every((p) => {
      const better = p.a === v ? p.wins > p.losses : p.losses > p.wins;
      return p.significant && better;
    });
    if (beatsAll && variants > 1) return v;
  }
  return null;
}
