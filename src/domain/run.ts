import type { AssertionSpec, GradingThresholds } from './grade';
import type { NotifyOutcome, NotifySpec } from './notify';
import type { Outcome, RunSummary } from './results';
import type { ChunkFailure } from './stopEarly';

/** What a run is for: graded evaluation (feedback from grades) or a backfill (answers recorded, no grading). */
export type RunKind = 'evaluation' | 'backfill';

/** Options of a run. Plain JSON, small, and never a secret: the API key stays in the worker's environment. */
export interface RunOptions {
  siteId: string;
  /** Conversations in flight at once, across the whole run. @default 50 */
  concurrency: number;
  /** Send `good`/`bad` from the grades, or nothing. @default "graded" */
  feedback: 'graded' | 'none';
  /** Give up waiting for an answer after this long; the row is `timed_out`. @default 300000 (5 min) */
  answerTimeoutMs: number;
  /** Email for rows without one (the API needs one to create a session). */
  defaultEmail?: string;
  /** Model for rows without one; absent means the site's default. */
  model?: string;
  /** `response_language` for rows without one (a variant's answer language); absent lets the assistant choose. */
  responseLanguage?: string;
  /** `ui_locale` for rows without one (a variant's locale). */
  uiLocale?: string;
  /**
   * Set by a matrix run on each of its variants' runs (`<parentRunId>-<name>`): `sitechat runs` and history.html
   * group the variants under their parent. Absent on ordinary runs.
   */
  variant?: { parentRunId: string; name: string };
  /** Assertions applied to every row, from the run config. */
  assertions: AssertionSpec[];
  /** Pass marks of the reference graders whose spec has none (`reference`, `f1`, `rougeL`, `levenshtein`). */
  thresholds?: GradingThresholds;
  /** Close each conversation's session after its last turn. @default true */
  closeSessions: boolean;
  /** Async submit + polling, or the blocking chat endpoint (backfills). @default "async" */
  mode: 'async' | 'sync';
  /** CSV delimiter, when not auto-detected. */
  delimiter?: string;
  /** Quality gate: fail when the pass rate is below this (0..1). @default none (no minimum) */
  failUnder?: number;
  /** Quality gate: most rows (0..1) that may end in `error` or `timed_out`. @default 0 */
  maxErrorRate?: number;
  /**
   * A request the service failed (a `failed` status with a transient `error`, or a sync chat's 5xx with the API's
   * error) is asked again up to this many times per row, after 1 s, 2 s …; a first turn in a fresh session, a follow-up
   * in its own (docs/reports.md, "Re-asked after the service failed"). 0 turns it off. @default 2
   */
  reaskFailed?: number;
  /** Quality gate: most graded rows (0..1) that may stay `uncertain` (needs review). @default 0.1 */
  maxUncertainRate?: number;
  /** Quality gate: lost feedback and sessions left open warn instead of failing. @default false */
  allowSideEffectFailures?: boolean;
  /** Baseline run directory, or "latest" (resolved when the run finishes). */
  baseline?: string;
  /** Where report files go. @default runs/<runId>/ on the worker */
  outDir?: string;
  /** Backfills: the answers file (.csv or .jsonl), in dataset order, as the workers see the path. */
  outFile?: string;
  /**
   * Every conversation asked this many times, in fresh sessions, each repeat graded (src/datasets/repeat.ts); the
   * reports then give each row's k of N and the gate compares per-row pass rates. @default 1
   */
  repeat?: number;
  /**
   * When the baseline comparison is about to fail the gate, the regressed rows are asked this many more times in fresh
   * sessions, and a regression counts only where most of them fail too (src/datasets/confirm.ts). @default 0 for
   * runs, 2 for schedules (docs/reports.md, "Confirm before alarm")
   */
  confirm?: number;
  /** Chunks (pages of 100 conversations) per workflow history before the run continues as new. @default 200 */
  chunksPerRun?: number;
  /**
   * Who to tell when the run ends, and when: the NAMES of the worker's env vars holding webhook URLs and secrets,
   * never the values (docs/notifications.md). A multi-site run notifies once, for all its sites. @default none
   */
  notify?: NotifySpec;
  /**
   * The API the run asks: its base URL's origin and path, or the built-in simulator (src/api/identity.ts); never a
   * key. Every API call of the run carries it, and only a worker of that API runs the call (src/worker/apiGuard.ts):
   * one run, one API. Set by `sitechat run` from its own worker or SITECHAT_BASE_URL; else pinned by the worker that
   * prepares the run (absent until then).
   */
  api?: string;
}

export interface RunInput {
  kind: RunKind;
  runId: string;
  /** Absolute path as the workers see it, and the sha256 pinned when the run was started. */
  dataset: { path: string; sha256: string };
  options: RunOptions;
  /** A later attempt of the same run id: rows that already have an answer are not sent again. */
  resume?: boolean;
  /** Set by the run itself when it continues as new: where it stands. */
  carry?: RunCarry;
}

/** What a run carries into its next history when it continues as new; small whatever the dataset's size. */
export interface RunCarry {
  /** `api`: the API the worker that prepared the run pinned, when the run was started without one. */
  plan: { rows: number; units: number; pages: number; api?: string };
  nextPage: number;
  counts: OutcomeCounts;
  sessionsClosed: number;
  sessionsCloseFailed: number;
  startedAt: number;
}

/** Counts by outcome; they add up to the rows finished so far. */
export type OutcomeCounts = Record<Outcome, number>;

export interface RunProgress {
  runId: string;
  total: number;
  counts: OutcomeCounts;
  inFlight: number;
  /** Chunks (child workflows) finished / all. */
  chunksDone: number;
  chunks: number;
  /** Chunks started and not yet finished (sending, or waiting for their last answers and settles); at most 8. */
  chunksOpen?: number;
  startedAt: number;
  updatedAt: number;
  /** Rows per second since the start, and the estimated ms left at that pace. */
  throughput: number;
  etaMs?: number;
  cancelling: boolean;
  phase: 'preparing' | 'running' | 'finishing' | 'done';
  /** The run's workflow and its open chunks: where the CLI looks for activities waiting on the results store. */
  workflows?: string[];
  /** Set by the CLI, not the workflow: since when (epoch ms) activities of the run have been waiting for the results store. */
  storeUnreachableSince?: number;
}

/** What the run workflow returns: the summary (small); the rows are in the report files. */
export interface RunResult {
  runId: string;
  summary: RunSummary;
  /** Where the worker wrote the report files, and their names. */
  reportDir: string;
  reportFiles: string[];
  /** Backfills: the answers file written. */
  outputFile?: string;
  cancelled: boolean;
  /** What became of each notification, when the run has destinations. */
  notifications?: NotifyOutcome[];
}

export interface ChunkInput {
  kind: RunKind;
  runId: string;
  parentWorkflowId: string;
  page: number;
  /** Conversations in flight in this chunk. */
  window: number;
  options: RunOptions;
  resume?: boolean;
}

export interface ChunkResult {
  counts: OutcomeCounts;
  sessionsClosed: number;
  sessionsCloseFailed: number;
  cancelled: boolean;
  /** Set when an error no row can recover from (bad key, plan, site) stopped the chunk. */
  fatal?: ChunkFailure;
  /** Rows finished since the chunk's last progress signal: the run adds them. */
  unreported?: Partial<OutcomeCounts>;
}

export function emptyCounts(): OutcomeCounts {
  return { passed: 0, failed: 0, uncertain: 0, answered: 0, error: 0, timed_out: 0, skipped: 0 };
}

export function addCounts(into: OutcomeCounts, delta: Partial<OutcomeCounts>): void {
  for (const [k, v] of Object.entries(delta) as [Outcome, number][]) into[k] += v;
}

/** Outcome counts of a finished run's summary. */
export function countsOf(summary: RunSummary): OutcomeCounts {
  return {
    passed: summary.passed, failed: summary.failed, uncertain: summary.uncertain ?? 0, answered: summary.answered,
    error: summary.error, timed_out: summary.timedOut, skipped: summary.skipped,
  };
}

/**
 * Whether a run sends feedback for its answers: an evaluation with `feedback: 'graded'` (a backfill grades nothing).
 * Such a run's dataset must name its sessions with UUIDs, since the API may refuse feedback for other ids (spec §1).
 */
export function sendsFeedback(kind: RunKind, feedback: RunOptions['feedback']): boolean {
  return kind === 'evaluation' && feedback === 'graded';
}
