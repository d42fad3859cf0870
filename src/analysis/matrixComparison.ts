/**
 * The comparison a multi-site or matrix run writes beside its combined report: its variants' runs through
 * `src/analysis/compare` (the same figures and files as `sitechat compare`), a digest of it for summary.json and report.md,
 * and the `--reference` check of the gate.
 */
import { compareRuns } from './compare/compare';
import { formatP } from './stats';
import { CompareInputError } from './compare/rows';
import { CompareFile } from './compare/types';
import type { Comparison } from './compare/types';
import type { ComparisonDigest, SiteRunRef } from '../domain/multiSite';
import { lineName } from '../domain/siteVerdict';
import type { ResultsStore } from '../store/store';
import { plural } from '../shared/plural';

/** A comparison of the finished variants, or why there is none. */
export interface VariantComparison {
  comparison?: Comparison;
  /** Why nothing was compared (fewer than two variants finished). */
  unavailable?: string;
  leftOut?: string[];
}

/**
 * Compares every variant whose run finished (a run that failed before its reports has no finished meta and is left
 * out, named); nothing is compared with fewer than two.
 */
export async function compareVariants(store: ResultsStore, refs: readonly SiteRunRef[], now?: () => Date): Promise<VariantComparison> {
  const finished: SiteRunRef[] = [];
  const leftOut: string[] = [];
  for (const ref of refs) {
    const meta = await store.getMeta(ref.runId);
    if (meta?.finishedAt) finished.push(ref);
    else leftOut.push(`${lineName(ref)}: ${ref.failure?.message ?? 'its run did not finish'}`);
  }
  if (finished.length < 2) {
    return { unavailable: `no comparison: ${finished.length === 0 ? 'no' : 'only one'} variant's run finished (${leftOut.join('; ')})`, ...(leftOut.length && { leftOut }) };
  }
  try {
    const comparison = await compareRuns(store, finished.map((r) => r.runId), { labels: finished.map(lineName), ...(now && { now }) });
    return { comparison, ...(leftOut.length && { leftOut }) };
  } catch (err) {
    if (!(err instanceof CompareInputError)) throw err;
    return { unavailable: `no comparison: ${err.message}`, ...(leftOut.length && { leftOut }) };
  }
}

export function digestOf(c: Comparison, leftOut?: string[]): ComparisonDigest {
  const name = (i: number): string => c.variants[i]?.label ?? `variant ${i + 1}`;
  return {
    conclusion: c.conclusion, best: c.best === null ? null : name(c.best), alpha: c.alpha, pairedRows: c.pairedRows, unpairedRows: c.unpairedRows,
    variants: c.variants.map((v, i) => ({
      name: v.label, runId: v.runId, passRate: c.stats[i]?.passRate ?? null, interval: c.stats[i]?.interval ?? null, decided: c.stats[i]?.decided ?? 0,
    })),
    pairs: c.pairs.map((p) => ({
      first: name(p.a), second: name(p.b), wins: p.wins, ties: p.ties, losses: p.losses, test: p.test, p: p.pValue, adjustedP: p.adjustedP, significant: p.significant,
      better: p.better === 'a' ? 'first' : p.better === 'b' ? 'second' : null,
    })),
    files: Object.values(CompareFile),
    ...(leftOut?.length && { leftOut }),
  };
}

/**
 * `--reference NAME`: a reason for every variant that beats the reference significantly (Holm-adjusted across all
 * pairs, as the comparison reports them). Empty when the reference holds its own.
 */
export function referenceReasons(digest: ComparisonDigest, reference: string): string[] {
  const reasons: string[] = [];
  for (const p of digest.pairs) {
    if (!p.significant || (p.first !== reference && p.second !== reference)) continue;
    const refIsFirst = p.first === reference;
    const [refWins, otherWins] = refIsFirst ? [p.wins, p.losses] : [p.losses, p.wins];
    if (p.better !== (refIsFirst ? 'second' : 'first')) continue;
    const other = refIsFirst ? p.second : p.first;
    const figures = p.test === 'cmh'
      ? `${other} passed a larger share of its answers on ${plural(otherWins, 'row')} and a smaller one on ${refWins} (Cochran–Mantel–Haenszel p ${formatP(p.p)}`
      : `${other} passed ${plural(otherWins, 'row')} that ${reference} failed and failed ${refWins} that it passed (McNemar p ${formatP(p.p)}`;
    reasons.push(`the reference variant ${reference} is beaten significantly by ${other}: ${figures}, Holm-adjusted ${formatP(p.adjustedP)} < alpha ${digest.alpha})`);
  }
  return reasons;
}
