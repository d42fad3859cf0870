import type { CmhResult, RowCounts } from '../repeatStats';
import type { McNemarResult, Outcome } from '../../domain/results';

/** One compared run ("variant"): what it asked with, and where its rows come from. */
export interface Variant {
  /** Short unique name shown in tables: `model @ site`, with the run id when two would read the same. */
  label: string;
  runId: string;
  siteId: string;
  model?: string;
  dataset: string;
  datasetSha256: string;
  startedAt: string;
}

/** One variant's answer to a row, as far as the comparison needs it. */
export interface Cell {
  outcome: Outcome;
  answer?: string;
  /** Why it passed or failed: the deciding reason (decision or first failed assertion), or the error. */
  reason?: string;
  latencyMs?: number;
  confidenceScore?: number;
  /** When the run asked every row N > 1 times (`--repeat`): passed and graded answers over all the row's repeats. */
  repeats?: RowCounts;
}

/** A dataset row with each variant's cell (undefined: that run has no result for it). */
export interface ComparedRow {
  id: string;
  index: number;
  question: string;
  conversation?: string;
  turn?: number;
  cells: (Cell | undefined)[];
  /** Why the row is not in the paired statistics of every pair, or undefined when it is. */
  unpaired?: string;
  /** The runs asked different questions under this id (`--any-dataset`): in no pair at all. */
  mismatched?: true;
  /** The variants gave different grades (among the decided ones). */
  disagree: boolean;
}

/** A variant's own figures. */
export interface VariantStats {
  /** Rows with a decided grade (passed or failed) on their first answer. */
  decided: number;
  passed: number;
  /** The pass rate: of the first answers, or with repeats of every graded answer (Σk / Σn over rows). */
  passRate: number | null;
  /**
   * 95 % interval of the pass rate: Wilson score, and with repeats Wilson at the clustered answers' effective sample
   * size (the repeats of a row are not independent answers; docs/reports.md "Repeats").
   */
  interval: [number, number] | null;
  /** With repeats: the answers asked per row (N) and the graded answers behind the pass rate. */
  repeat?: number;
  answers?: number;
  uncertain: number;
  /** error and timed_out rows. */
  errors: number;
  /** Rows of the dataset without a result in this run. */
  missing: number;
  latencyP50: number | null;
  latencyP95: number | null;
  confidence: { mean: number; median: number; min: number; max: number } | null;
}

/** Two variants over the rows both graded. */
export interface PairStats {
  a: number;
  b: number;
  /** a passed, b failed. */
  wins: number;
  /** both the same grade. */
  ties: number;
  /** a failed, b passed. With repeats, wins and losses compare the rows' pass rates (k of N). */
  losses: number;
  /**
   * The test behind `pValue`: the exact McNemar test on the first answers, or, when either run asked its rows more than
   * once, the Cochran–Mantel–Haenszel test over all answers with each row a stratum (the gate's test with repeats).
   */
  test: 'mcnemar' | 'cmh';
  pValue: number;
  /** Which variant the rows favour (McNemar: more wins than losses; CMH: the sign of the excess), null when even. */
  better: 'a' | 'b' | null;
  /** The exact McNemar test on the first answers (always given, for comparison with runs without repeats). */
  mcnemar: McNemarResult;
  cmh?: CmhResult;
  /** Holm-adjusted p over all pairs of the comparison. */
  adjustedP: number;
  significant: boolean;
}

export interface Comparison {
  /** Format version of compare.json: 2 since repeats are compared (pairs' `test`, `pValue`, `better`; cells' `repeats`). */
  version: 2;
  createdAt: string;
  alpha: number;
  variants: Variant[];
  stats: VariantStats[];
  pairs: PairStats[];
  /** Rows of every run, in dataset order. */
  rows: ComparedRow[];
  /** Number of rows in every pair's statistics (graded by all variants). */
  pairedRows: number;
  unpairedRows: number;
  /** Confirming answers (`--confirm`) left out: they were asked only for the rows that regressed, so they would bias a pair. */
  confirmationsIgnored: number;
  /** Index of the variant significantly better than every other one, or null. */
  best: number | null;
  /** The plain sentence: the best variant, or "no significant difference". */
  conclusion: string;
}

/** The files a comparison is written to (src/render/compare/write.ts), named here so a multi-site digest can list them. */
export const CompareFile = { markdown: 'compare.md', html: 'compare.html', json: 'compare.json', junit: 'compare.junit.xml' } as const;
