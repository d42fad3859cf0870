/**
 * Types of the session cleanup. Plain JSON, small, and never a secret: they travel through workflow history.
 * Workflow-safe: no Node imports here.
 */
import type { WorkerProvenance } from '../domain/provenance';

import type { NotifyOutcome, NotifySpec } from '../domain/notify';

/** What `sitechat cleanup` and the cleanup schedule start `sessionCleanup` with. */
export interface CleanupInput {
  siteId: string;
  /** Only sessions of this user email: sent as the API's `email` filter and checked again on each session. */
  email?: string;
  /** Close sessions idle at least this long: now − `updated_at` ≥ idleForMs, now being the workflow's start time. */
  idleForMs?: number;
  /** ISO 8601 instant: close sessions whose `created_at` is before it. */
  createdBefore?: string;
  /** Close (or, in a dry run, select) at most this many sessions. @default no limit */
  max?: number;
  /** List and select only; nothing is closed. @default false */
  dryRun?: boolean;
  /** Sessions per list call, 1–500. @default 500 */
  pageSize?: number;
  /** Sessions per close activity. @default 100 */
  closeBatchSize?: number;
  /** Listing passes at most, when the list changed while it was paged. @default 3 */
  maxPasses?: number;
  /** Matched sessions kept in the report as examples (a dry run's "would close" list). @default 50 */
  sampleSize?: number;
  /** Where the last run stopped; set only by the workflow itself when it continues as new. */
  cursor?: CleanupCursor;
  /** Who to tell when the cleanup ends (env var names only; docs/notifications.md). @default none */
  notify?: NotifySpec;
  /**
   * The API whose sessions are closed (`RunOptions.api`: origin and path, never a key): only a worker of that API
   * lists and closes. Set by `sitechat cleanup` when it knows it. @default any worker's
   */
  api?: string;
}

/** The rule with absolute cutoffs (epoch ms), fixed once when the cleanup starts. All given parts must hold. */
export interface SelectionRule {
  /** Case-insensitive equality with the session's email. */
  email?: string;
  /** `updated_at` at or before this instant. */
  updatedAtOrBefore?: number;
  /** `created_at` strictly before this instant. */
  createdBefore?: number;
}

/** A selected session, as shown in reports and dry-run output. */
export interface MatchedSession {
  id: string;
  email: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

/** One list call of the cleanup (activity input). */
export interface CleanupPageInput {
  siteId: string;
  email?: string;
  offset: number;
  limit: number;
  rule: SelectionRule;
  /** Return the ids of the matches (not needed by a dry run). */
  wantIds: boolean;
  /** Return details of the first this-many matches. */
  samples: number;
  /** Sessions already handled on the previous page: ignored if the list shifted them onto this one. */
  ignoreIds: string[];
}

/** What one list call found (activity result): counts, and ids only of what is to be closed. */
export interface CleanupPage {
  /** Sessions on the page as the API returned it (advances the offset). */
  rows: number;
  /** Sessions on the page, minus those in `ignoreIds`. */
  listed: number;
  /** `pagination.total` of this response. */
  total: number;
  /** Active sessions matching the rule. */
  matched: number;
  /** Ids of the active matches, in list order (empty unless `wantIds`). */
  matchedIds: string[];
  /** Sessions that match the rule but were closed already. */
  alreadyClosed: number;
  /** Sessions skipped because `created_at` or `updated_at` could not be read. */
  unreadable: number;
  /** Sessions that do not match the rule. listed = matched + alreadyClosed + unreadable + notMatched. */
  notMatched: number;
  samples: MatchedSession[];
}

export interface CleanupCounts {
  /** Sessions listed in the first pass (the site's sessions under the email filter, as paged). */
  listed: number;
  /** Sessions read again by re-list passes (after the list changed while it was paged). */
  relisted: number;
  /** Active sessions matching the rule, in all passes (capped by `max`). */
  matched: number;
  /** Close calls answered `ok`. */
  closed: number;
  /** Sessions matching the rule that were already closed when first listed. */
  alreadyClosed: number;
  /** Close calls that failed after retries. */
  failed: number;
  /** Sessions skipped for an unreadable timestamp. */
  unreadable: number;
  /**
   * Sessions of the first pass that do not match the rule: with `alreadyClosed`, `unreadable` and the first pass's
   * matches, they add up to `listed`. Absent in reports of cleanups started before it was counted.
   */
  notMatched?: number;
  /** Active sessions that matched but were left open because `max` was reached. Absent: none (or not counted). */
  overMax?: number;
}

export interface CloseFailure {
  sessionId: string;
  error: string;
}

/** Why a cleanup ended before the list was exhausted. */
export const StopReason = {
  max: 'max',
  cancelled: 'cancelled',
  error: 'error',
  /** The list kept changing and the last allowed pass was not stable. */
  passes: 'passes',
} as const;
export type StopReason = (typeof StopReason)[keyof typeof StopReason];

/** The workflow's state; carried across continue-as-new. Bounded: no list grows with the site's size. */
export interface CleanupCursor {
  startedAt: string;
  rule: SelectionRule;
  pass: number;
  offset: number;
  /** `pagination.total` on the first page of this pass; -1 before it. */
  passTotal: number;
  /** Rows read in this pass. */
  passRows: number;
  passMatched: number;
  /** The total changed, or the list ended early, during this pass. */
  unstable: boolean;
  pages: number;
  counts: CleanupCounts;
  samples: MatchedSession[];
  failures: CloseFailure[];
  failureReasons: Record<string, number>;
  /** Sessions that failed to close (at most a thousand): not tried again in a later pass. */
  failedIds: string[];
  /** Ids handled on the previous page. */
  lastPageIds: string[];
  notes: string[];
}

export interface CleanupProgress {
  pass: number;
  pages: number;
  offset: number;
  total: number;
  counts: CleanupCounts;
}

/** The result of `sessionCleanup`, also written as JSON to `runs/cleanup-<reportId>.json`. */
export interface CleanupReport {
  /**
   * Which API the sessions were closed on (its host; the built-in simulator says so) and the runner's build; added
   * by the activity that writes the report file (absent in the workflow's result).
   */
  provenance?: Pick<WorkerProvenance, 'answers' | 'runner'>;
  reportId: string;
  workflowId: string;
  siteId: string;
  dryRun: boolean;
  rule: { email?: string; idleForMs?: number; updatedAtOrBefore?: string; createdBefore?: string; max?: number };
  startedAt: string;
  finishedAt: string;
  passes: number;
  pages: number;
  counts: CleanupCounts;
  /** First matched sessions (in a dry run: those that would be closed). */
  samples: MatchedSession[];
  /** First close failures, and the count of each distinct reason. */
  failures: CloseFailure[];
  failureReasons: Record<string, number>;
  /** True when the list was paged to its end (no stop reason). */
  complete: boolean;
  stoppedBy?: StopReason;
  error?: string;
  notes: string[];
  /** Where the worker wrote the report. */
  reportPath?: string;
  /** What became of each notification, when the cleanup has destinations. */
  notifications?: NotifyOutcome[];
}
