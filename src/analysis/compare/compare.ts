/** Builds a comparison of finished runs from the results store. Nothing is asked. */
import { DEFAULT_ALPHA } from '../stats';
import type { ResultsStore } from '../../store/store';
import { formatP } from '../stats';
import { lineUpRows, loadVariants } from './rows';
import { bestVariant, pairStats, variantStats } from './statistics';
import type { Comparison, PairStats, Variant } from './types';

export interface CompareOptions {
  alpha?: number;
  /** Pair runs of different datasets by row id and question. */
  anyDataset?: boolean;
  /** Names of the runs in the tables, in the order of `runIds` (a matrix run's variant names). @default `model @ site` */
  labels?: readonly string[];
  now?: () => Date;
}

export async function compareRuns(store: ResultsStore, runIds: readonly string[], opts: CompareOptions = {}): Promise<Comparison> {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const loaded = await loadVariants(store, runIds, { anyDataset: opts.anyDataset });
  const variants = opts.labels ? loaded.map((v, i) => ({ ...v, label: opts.labels?.[i] ?? v.label })) : loaded;
  const skipped = { confirmations: 0 };
  const rows = await lineUpRows(store, variants, skipped);
  const pairs = pairStats(rows, variants.length, alpha);
  const best = bestVariant(pairs, variants.length);
  const unpairedRows = rows.filter((r) => r.unpaired).length;
  return {
    version: 2, createdAt: (opts.now?.() ?? new Date()).toISOString(), alpha, variants,
    stats: variants.map((_, v) => variantStats(rows, v)), pairs, rows, pairedRows: rows.length - unpairedRows, unpairedRows,
    confirmationsIgnored: skipped.confirmations,
    best, conclusion: conclusion(variants, pairs, best, alpha),
  };
}

/** The plain sentence: a best variant only when it beats every other one significantly. */
function conclusion(variants: readonly Variant[], pairs: readonly PairStats[], best: number | null, alpha: number): string {
  if (best !== null) {
    const own = pairs.filter((p) => p.a === best || p.b === best);
    const worstP = Math.max(...own.map((p) => p.adjustedP));
    return `${variants[best]?.label} is better than ${variants.length === 2 ? 'the other variant' : 'every other variant'} (${testName(pairs)}, Holm-adjusted p ${variants.length === 2 ? '=' : '≤'} ${formatP(worstP)}, alpha ${alpha}).`;
  }
  const differing = pairs.filter((p) => p.significant).map((p) => {
    const [hi, lo] = p.better === 'a' ? [p.a, p.b] : [p.b, p.a];
    return `${variants[hi]?.label} > ${variants[lo]?.label}`;
  });
  if (differing.length === 0) return `No significant difference (${testName(pairs)}, Holm-adjusted, alpha ${alpha}).`;
  return `No variant is better than every other one; significant pairs: ${differing.join(', ')}.`;
}

/** The test named in the sentence: McNemar, Cochran–Mantel–Haenszel when repeats were compared, or both. */
function testName(pairs: readonly PairStats[]): string {
  const tests = new Set(pairs.map((p) => p.test));
  if (tests.size > 1) return 'McNemar or, with repeats, Cochran–Mantel–Haenszel';
  return tests.has('cmh') ? 'Cochran–Mantel–Haenszel over repeats' : 'McNemar';
}
