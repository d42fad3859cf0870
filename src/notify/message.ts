/**
 * The one message every destination renders: what ended, its verdict and every reason, the numbers, the rows that
 * regressed and the errors. Built by the notify activity from the results store; each renderer (slack.ts, teams.ts,
 * webhook.ts) only shapes it. Holds no secret: URLs and signing secrets never reach it.
 */
import type { NotifyTrigger } from '../domain/notify';

/** What ended. */
export const NotifyEvent = {
  run: 'run',
  multiSiteRun: 'multi_site_run',
  cleanup: 'cleanup',
} as const;
export type NotifyEvent = (typeof NotifyEvent)[keyof typeof NotifyEvent];

/** The verdict in the message: a run's gate verdict, or a cleanup's. */
export type NotifyVerdict = 'passed' | 'failed' | 'cancelled' | 'no_threshold';

/** A row that passed in the baseline and fails now. Texts are already truncated (see `clip`). */
export interface RegressedRow {
  id: string;
  /** The site, in a multi-site run. */
  siteId?: string;
  question: string;
  before?: string;
  now?: string;
}

export interface ErrorLine {
  type: string;
  count: number;
  /** The first row's message of this type, truncated. */
  example?: string;
}

export interface NotificationMessage {
  event: NotifyEvent;
  /** The trigger that fired (`always` when only `always` matched). */
  trigger: NotifyTrigger;
  verdict: NotifyVerdict;
  /** One line: "Nightly run 2026… FAILED on site help-center". */
  title: string;
  /**
   * The cause most of the run's errors share, in the terminal's words ("66 of 66 errored rows: the API refused the key
   * (401 invalid_api_key): check SITECHAT_API_KEY"); every destination shows it first. Absent when there is none.
   */
  cause?: string;
  /** The gate's (or cleanup's) reasons, every one. */
  reasons: string[];
  warnings: string[];
  runId: string;
  workflowId: string;
  sites: string[];
  /** null: the site's default model. */
  model: string | null;
  dataset?: { path: string; sha256: string };
  /** passed / graded; null when nothing was graded (cleanups). */
  passRate: number | null;
  baseline?: { runId: string; passRate: number | null; delta: number | null; regressed: number; fixed: number };
  /** Outcome counts (runs) or cleanup counts. */
  counts: Record<string, number>;
  /** The first regressed rows (at most `MAX_REGRESSED_ROWS`), and how many there are. */
  regressed: RegressedRow[];
  regressedTotal: number;
  errors: ErrorLine[];
  /** `SITECHAT_REPORT_BASE_URL`/<runId>/report.html, when the worker has the base URL. */
  reportUrl?: string;
  startedAt?: string;
  finishedAt?: string;
}

/** The worker variable that makes report links: `<base>/<runId>/report.html`. */
export const REPORT_BASE_URL_VARIABLE = 'SITECHAT_REPORT_BASE_URL';

/** Rows listed in a message; the rest are counted ("and 12 more"). */
export const MAX_REGRESSED_ROWS = 5;
/** Characters of a question or answer kept in a message. */
export const MAX_ROW_TEXT = 300;
/** Characters of an error example kept. */
export const MAX_ERROR_TEXT = 200;
/** Characters of the cause line kept: its words come from a fixed table, only the API's `error` string varies. */
export const MAX_CAUSE_TEXT = 500;
/** Reasons kept: a gate lists a handful; a multi-site run one per failed site. */
export const MAX_REASONS = 20;

/** At most `max` characters, ending in "…" when cut; whitespace runs folded to one space. */
export function clip(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** `0.8333` → `83.3%`; null → `n/a`. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

/** `-0.05` → `-5.0 pp`; null → `n/a`. */
export function points(delta: number | null | undefined): string {
  if (delta === null || delta === undefined) return 'n/a';
  const pp = delta * 100;
  return `${pp > 0 ? '+' : ''}${pp.toFixed(1)} pp`;
}

/** `FAILED`, `PASSED`, … as the reports print verdicts. */
export function verdictText(v: NotifyVerdict): string {
  return v === 'no_threshold' ? 'NO THRESHOLD SET' : v.toUpperCase();
}

/** The report link: the base URL with one `/` before `<runId>/report.html`. */
export function reportUrlFor(baseUrl: string | undefined, runId: string): string | undefined {
  if (!baseUrl) return undefined;
  return `${baseUrl.replace(/\/+$/u, '')}/${encodeURIComponent(runId)}/report.html`;
}

/** The headline facts as label/value pairs, shared by the Slack and Teams renderers. */
export function facts(m: NotificationMessage): [string, string][] {
  const out: [string, string][] = [
    ['Verdict', verdictText(m.verdict)],
    [m.sites.length > 1 ? 'Sites' : 'Site', m.sites.join(', ')],
  ];
  if (m.event !== 'cleanup') {
    out.push(['Model', m.model ?? 'site default']);
    if (m.dataset) out.push(['Dataset', m.dataset.path]);
    out.push(['Pass rate', percent(m.passRate)]);
    if (m.baseline) out.push(['vs baseline', `${points(m.baseline.delta)} (baseline ${m.baseline.runId}: ${percent(m.baseline.passRate)}; ${m.baseline.regressed} regressed, ${m.baseline.fixed} fixed)`]);
  }
  out.push(['Counts', Object.entries(m.counts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ') || 'none']);
  out.push(['Run', `${m.runId} (workflow ${m.workflowId})`]);
  return out;
}
