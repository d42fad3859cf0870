import type { GateResult, RunSummary } from './results';
import type { RunOptions, RunResult } from './run';
import type { SiteVerdict } from './siteVerdict';
/**
 * One dataset against several sites in one run (`sitechat run --site a,b,c`). Every site gets a run of its own
 * (`<runId>-<site>`, workflow `<workflowId>-<site>`) with its own reports, baseline and gate; the parent writes one
 * combined report. Plain JSON, small, never a secret.
 */
export interface MultiSiteInput {
  /** Multi-site runs are evaluations: a backfill's answers file is per site. */
  kind: 'evaluation';
  /** Empty for scheduled runs: the run id then comes from the workflow id. */
  runId: string;
  /** Absolute path as the workers see it; sha256 empty for scheduled runs (each site's run pins the file). */
  dataset: { path: string; sha256: string };
  /**
   * At least two distinct site ids, each a safe folder name (`parseSiteList`); with `variants`, the distinct sites
   * they ask (each one's access is checked once, before any question).
   */
  sites: string[];
  /**
   * A matrix run (`--model a,b`, the config's `variants:`): one run per variant, `<runId>-<name>`, each with its
   * settings over `options`. Absent: one variant per site of `sites`, named after it (the multi-site run).
   */
  variants?: VariantSpec[];
  /** A variant's name: the run fails when another variant beats it significantly (Holm-adjusted McNemar). */
  reference?: string;
  /**
   * Options of every site's run; `siteId` is replaced by each site. `outDir` is the combined report's directory;
   * each site's reports then go to `<outDir>/<site>/`. @default outDir runs/<runId>/, sites in runs/<runId>-<site>/
   */
  options: RunOptions;
}

/**
 * One variant of a matrix run: a name (its run id suffix, folder and column) and what it sets over the run's options.
 * Variants on one site share that site's API budget (the pacing key is the site).
 */
export interface VariantSpec {
  name: string;
  siteId: string;
  model?: string;
  responseLanguage?: string;
  uiLocale?: string;
}

/** One site of a multi-site run, as the parent saw it end. */
export interface SiteRunOutcome {
  siteId: string;
  runId: string;
  workflowId: string;
  /** The site's own result, when its run returned. */
  result?: Pick<RunResult, 'reportDir' | 'reportFiles' | 'cancelled'>;
  /** Why the site's run failed (its reports are still written when it got as far as the first question). */
  failure?: { message: string; type: string };
}

/** What `multiSiteRun` returns; shaped like a RunResult so the CLI's summary and exit code work unchanged. */
export interface MultiSiteResult extends RunResult {
  summary: MultiSiteSummary;
}

/** The parent's own view of its sites, for `sitechat run`/`watch` to query each site's live progress. */
export interface MultiSiteState {
  runId: string;
  /** One entry per variant (a multi-site run's variants are its sites); `name` is absent in runs started before variants. */
  sites: { siteId: string; name?: string; runId: string; workflowId: string; done: boolean }[];
  /** A matrix run's variants and reference, as started (for `sitechat watch` to render its reports elsewhere). */
  variants?: VariantSpec[];
  reference?: string;
}

/** One site of a multi-site run, as the combined report shows it: its outcome counts as in its own summary. */
export interface SiteLine extends Pick<RunSummary, 'passed' | 'failed' | 'uncertain' | 'answered' | 'error' | 'timedOut' | 'skipped' | 'missing' | 'passRate'> {
  siteId: string;
  /** A matrix run's variant (its name and settings); absent in a multi-site run, whose lines are its sites. */
  variant?: VariantSpec;
  runId: string;
  workflowId: string;
  /** Where the site's own report files are; absent when its run wrote none. */
  reportDir?: string;
  /** Dataset rows (with a result or missing). */
  rows: number;
  /** (error + timed_out) / rows; null without rows. */
  errorRate: number | null;
  durationMs: number | null;
  verdict: SiteVerdict;
  /** The site's own gate (reasons and warnings), as in its summary.json. */
  gate?: GateResult;
  /** Why the site's run failed, with `verdict: run_failed`. */
  failure?: string;
  /** The site's baseline comparison in a few numbers, when it had one. */
  baseline?: { runId: string; delta: number | null; regressed: number; fixed: number };
}

/**
 * `summary.json` of a multi-site run: the numbers over every site's rows (`siteId` lists the sites, comma-separated),
 * the combined gate, and the per-site lines. No baseline at this level: each site compares with its own.
 */
export interface MultiSiteSummary extends RunSummary {
  sites: SiteLine[];
  /** The comparison of the variants (or sites), in short; compare.{md,html,json,junit.xml} hold all of it. */
  comparison?: ComparisonDigest;
  /** Why there is no comparison (fewer than two variants finished). */
  comparisonUnavailable?: string;
  /** `--reference`: the variant no other may beat significantly. */
  reference?: string;
}

/** A site's run as the parent workflow saw it end. */
export interface SiteRunRef {
  siteId: string;
  /** Set in matrix runs (`variants`); a multi-site run's lines are named after their sites. */
  variant?: VariantSpec;
  runId: string;
  workflowId: string;
  reportDir?: string;
  failure?: { message: string; type: string };
}

/** The comparison in a few lines, as summary.json keeps it (the rows are in compare.json). */
export interface ComparisonDigest {
  /** The plain sentence: the best variant, only when it is significantly better than every other one. */
  conclusion: string;
  best: string | null;
  alpha: number;
  pairedRows: number;
  unpairedRows: number;
  variants: { name: string; runId: string; passRate: number | null; interval: [number, number] | null; decided: number }[];
  /**
   * Every pair: wins (first passed, second failed; with repeats: a larger share of its answers), ties, losses, p of
   * `test` (exact McNemar, or Cochran–Mantel–Haenszel with repeats), its Holm adjustment, and which one the rows favour.
   */
  pairs: { first: string; second: string; wins: number; ties: number; losses: number; test: 'mcnemar' | 'cmh'; p: number; adjustedP: number; significant: boolean; better: 'first' | 'second' | null }[];
  /** The comparison's files, in the combined report's directory. */
  files: string[];
  /** Variants of the run not in the comparison (their run did not finish), with why. */
  leftOut?: string[];
}
