import type { MultiSiteSummary } from '../reports/multiSite';
import type { RunOptions, RunResult } from './run';

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
