import type { NotifyOutcome } from '../domain/notify';

/** Files the file store keeps in `<rootDir>/<runId>/`. */
export const StoreFile = {
  meta: 'meta.json',
  /** Append-only raw log: one JSON row per line, duplicates allowed, deduplicated on read. */
  log: 'rows.log.jsonl',
  summary: 'summary.json',
  /** Append-only: sessions the run could not close, one JSON object per line, deduplicated on read. */
  sessionFailures: 'session-failures.jsonl',
  /** Append-only: what is known about sending each row's question, one JSON object per line, last one wins. */
  submissions: 'submissions.jsonl',
  /** Append-only: what each row's settle did on the API (feedback, close), one JSON object per line, last one wins. */
  settled: 'settled.jsonl',
  /** What became of the notifications sent when the run ended; also the report file of that name. */
  notifications: 'notifications.json',
} as const;

/** The file store's labels: one append-only file in `<rootDir>` itself (labels belong to a site, not to a run). */
export const LABELS_FILE = 'labels.jsonl';

/**
 * Report files written by `writeReports`. `summary.json` is the same document the store keeps,
 * so a run directory stays consistent when reports are written into it; no name clashes with the raw log.
 */
export const ReportFile = {
  summary: 'summary.json',
  /** Final results: one line per row id, dataset order. */
  results: 'results.jsonl',
  markdown: 'report.md',
  junit: 'junit.xml',
  html: 'report.html',
} as const;
export type ReportFile = (typeof ReportFile)[keyof typeof ReportFile];

/** `notifications.json`: a run's notification outcomes, as the file store keeps them and report directories show them. */
export function notificationsJson(outcomes: readonly NotifyOutcome[]): string {
  return `${JSON.stringify(outcomes, null, 2)}\n`;
}
