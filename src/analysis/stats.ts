import { Outcome, type Histogram, type McNemarResult, type TagStats } from '../domain/results';

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

/** Significance level of the baseline comparison. */
export const DEFAULT_ALPHA = 0.05;

/**
 * Nearest-rank percentile of ascending-sorted values: the smallest value with at least `p`% of the
 * values at or below it. Exact (no interpolation), so it is always a latency that really occurred.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

/** Histogram of `values` over `bins` equal bins from `start` to `end` (values outside are clamped). */
export function histogram(values: ArrayLike<number>, start: number, end: number, bins: number): Histogram {
  const width = end > start ? (end - start) / bins : 1;
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? start;
    const bin = Math.min(bins - 1, Math.max(0, Math.floor((v - start) / width)));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return { start, width, counts };
}

/** A round upper bound ≥ `max` (1, 2, 2.5 or 5 × 10ⁿ), so histogram bin edges read well. */
export function niceCeil(max: number): number {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * magnitude >= max) ?? 10;
  return step * magnitude;
}

/** log(e^a + e^b) without overflow. */
function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  const hi = Math.max(a, b);
  return hi + Math.log1p(Math.exp(Math.min(a, b) - hi));
}

/**
 * Exact two-sided McNemar test: under H0 the discordant pairs split Binomial(b + c, ½), so
 * p = min(1, 2 · Σ_{k ≤ min(b,c)} C(b+c, k) / 2^(b+c)). Summed in log space, so it stays finite for
 * any number of pairs (100,000 rows included).
 */
export function mcnemarExact(b: number, c: number, alpha = DEFAULT_ALPHA): McNemarResult {
  const n = b + c;
  const low = Math.min(b, c);
  let logTail = -Infinity;
  let logC = 0; // log C(n, 0)
  for (let k = 0; k <= low; k++) {
    logTail = logAddExp(logTail, logC);
    logC += Math.log(n - k) - Math.log(k + 1);
  }
  const pValue = n === 0 ? 1 : Math.min(1, 2 * Math.exp(logTail - n * Math.LN2));
  return { b, c, pValue, significant: pValue < alpha, alpha };
}

/** Counts one row's outcome into its tag's numbers. */
export function addToTag(stats: TagStats, outcome: Outcome): void {
  stats.total++;
  if (outcome === Outcome.passed) stats.passed++;
  if (outcome === Outcome.failed) stats.failed++;
  if (outcome === Outcome.uncertain) stats.uncertain = (stats.uncertain ?? 0) + 1;
  if (outcome === Outcome.passed || outcome === Outcome.failed) stats.graded++;
}

/** p as one notation everywhere: fixed above 0.001, else scientific. */
export function formatP(p: number): string {
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(2);
}
