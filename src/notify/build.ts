/**
 * Builds the message of a finished run, multi-site run or cleanup from what the results store holds: the summary's
 * verdict and reasons, the first regressed rows with the baseline's answer and today's, the errors by type. Memory is
 * bounded: one streaming pass over the run's rows, one over the baseline's.
 */
import { loadBaseline } from '../analysis/baseline';
import { causeLine, errorTypeOf } from '../analysis/cause';
import { plural } from '../shared/plural';
import { lineName, lineNoun } from '../analysis/multiSite';
import { type MultiSiteSummary } from '../domain/multiSite';
import type { ResultsStore } from '../store/store';
import type { RowResult, RunSummary } from '../domain/results';
import type { CleanupReport } from '../cleanup/types';
import {
  clip, MAX_CAUSE_TEXT, MAX_ERROR_TEXT, MAX_REASONS, MAX_REGRESSED_ROWS, MAX_ROW_TEXT, NotifyEvent, reportUrlFor,
  type ErrorLine, type NotificationMessage, type NotifyVerdict, type RegressedRow,
} from './message';
import { NotifyTrigger } from '../domain/notify';

/** A message before its trigger is known. */
export type Draft = Omit<NotificationMessage, 'trigger'>;

export interface BuildContext {
  /** SITECHAT_REPORT_BASE_URL of the worker. */
  reportBaseUrl?: string;
}

function verdictOfSummary(s: RunSummary): NotifyVerdict {
  return s.gate?.verdict ?? (s.cancelled ? 'cancelled' : 'no_threshold');
}

/** The regressed rows shown (now and before) and an example message per error type, from one pass per run. */
async function rowDetails(store: ResultsStore, summary: RunSummary, baselineDir: string | undefined, siteId?: string): Promise<{ regressed: RegressedRow[]; examples: Map<string, string> }> {
  const shownIds = new Set((summary.baseline?.regressed ?? []).slice(0, MAX_REGRESSED_ROWS));
  const now = new Map<string, RowResult>();
  const examples = new Map<string, string>();
  for await (const row of store.read(summary.runId)) {
    if (shownIds.has(row.id)) now.set(row.id, row);
    const type = errorTypeOf(row);
    if (type !== undefined && !examples.has(type) && row.error) examples.set(type, `${clip(row.error, MAX_ERROR_TEXT) ?? ''} (row ${row.id})`);
  }
  const before = new Map<string, RowResult>();
  const baselineRunId = summary.baseline?.runId;
  if (baselineRunId && shownIds.size > 0) {
    const rows = (await store.getMeta(baselineRunId)) ? store.read(baselineRunId) : baselineDir ? (await loadBaseline(baselineDir).catch(() => undefined))?.readRows?.() : undefined;
    for await (const row of rows ?? []) if (shownIds.has(row.id)) before.set(row.id, row);
  }
  const regressed = [...shownIds].map((id) => {
    const current = now.get(id);
    return {
      id, ...(siteId && { siteId }),
      question: clip(current?.question ?? before.get(id)?.question, MAX_ROW_TEXT) ?? '(question not found)',
      before: clip(before.get(id)?.answer, MAX_ROW_TEXT),
      now: clip(current?.answer, MAX_ROW_TEXT),
    };
  });
  return { regressed, examples };
}

function errorLines(summary: RunSummary, examples: ReadonlyMap<string, string>): ErrorLine[] {
  return Object.entries(summary.errorsByType)
    .sort((a, b) => b[1] - a[1])
    .map(([type, count]) => ({ type, count, ...(examples.has(type) && { example: examples.get(type) }) }));
}

function counts(s: RunSummary): Record<string, number> {
  return { passed: s.passed, failed: s.failed, uncertain: s.uncertain ?? 0, answered: s.answered, error: s.error, timed_out: s.timedOut, skipped: s.skipped, missing: s.missing };
}

function runTitle(what: string, runId: string, verdict: NotifyVerdict, sites: string[], noun = 'site'): string {
  const label = verdict === 'no_threshold' ? 'finished (no quality threshold set)' : verdict.toUpperCase();
  return `sitechat ${what} ${runId}: ${label} ${noun === 'site' ? 'on' : 'in'} ${sites.length > 1 ? `${noun}s` : noun} ${sites.join(', ')}`;
}

/** An evaluation run's message, from its stored summary and rows. */
export async function buildRunMessage(store: ResultsStore, runId: string, ctx: BuildContext & { baselineDir?: string }): Promise<Draft> {
  const summary = await store.getSummary(runId);
  if (!summary) throw new Error(`run ${runId} has no summary in the results store (its reports were not written)`);
  const { regressed, examples } = await rowDetails(store, summary, ctx.baselineDir);
  const verdict = verdictOfSummary(summary);
  return {
    event: NotifyEvent.run, verdict, title: runTitle('run', runId, verdict, [summary.siteId]),
    ...(summary.cause && { cause: clip(causeLine(summary.cause), MAX_CAUSE_TEXT) }),
    reasons: (summary.gate?.reasons ?? []).slice(0, MAX_REASONS), warnings: (summary.gate?.warnings ?? []).slice(0, MAX_REASONS),
    runId, workflowId: summary.workflowId, sites: [summary.siteId], model: summary.model,
    dataset: { path: summary.dataset, sha256: summary.datasetSha256 }, passRate: summary.passRate,
    ...(summary.baseline && {
      baseline: { runId: summary.baseline.runId, passRate: summary.baseline.passRate, delta: summary.baseline.delta, regressed: summary.baseline.regressed.length, fixed: summary.baseline.fixed.length },
    }),
    counts: counts(summary), regressed, regressedTotal: summary.baseline?.regressed.length ?? 0,
    errors: errorLines(summary, examples), reportUrl: reportUrlFor(ctx.reportBaseUrl, runId),
    startedAt: summary.startedAt, ...(summary.finishedAt && { finishedAt: summary.finishedAt }),
  };
}

/** A multi-site run's message: the combined verdict and reasons, and the regressed rows of every site. */
export async function buildMultiSiteMessage(store: ResultsStore, summary: MultiSiteSummary, ctx: BuildContext): Promise<Draft> {
  const regressed: RegressedRow[] = [];
  let regressedTotal = 0;
  const examples = new Map<string, string>();
  for (const line of summary.sites) {
    const site = await store.getSummary(line.runId).catch(() => undefined);
    if (!site) continue;
    regressedTotal += site.baseline?.regressed.length ?? 0;
    const details = await rowDetails(store, site, undefined, line.siteId);
    regressed.push(...details.regressed);
    for (const [type, text] of details.examples) if (!examples.has(type)) examples.set(type, `${lineName(line)}: ${text}`);
  }
  // A matrix run's variants may share a site: the payload lists each site once, the title names the variants.
  const sites = [...new Set(summary.sites.map((s) => s.siteId))];
  const matrix = summary.sites.some((s) => s.variant);
  const verdict = verdictOfSummary(summary);
  const failures = summary.sites.filter((s) => s.failure).map((s) => `${lineNoun([s])} ${lineName(s)}: ${s.failure ?? ''}`);
  const deltas = summary.sites.filter((s) => s.baseline).map((s) => `${lineName(s)} ${s.baseline?.delta === null || s.baseline?.delta === undefined ? 'n/a' : `${s.baseline.delta > 0 ? '+' : ''}${(s.baseline.delta * 100).toFixed(1)} pp`}`);
  return {
    event: NotifyEvent.multiSiteRun, verdict, title: matrix
      ? runTitle('matrix run', summary.runId, verdict, summary.sites.map(lineName), 'variant')
      : runTitle('multi-site run', summary.runId, verdict, sites),
    ...(summary.cause && { cause: clip(causeLine(summary.cause), MAX_CAUSE_TEXT) }),
    reasons: [...(summary.gate?.reasons ?? []), ...failures].slice(0, MAX_REASONS),
    warnings: [
      ...(summary.gate?.warnings ?? []), ...(deltas.length > 0 ? [`change vs each ${lineNoun(summary.sites)}'s baseline: ${deltas.join(', ')}`] : []),
      ...(matrix && summary.comparison ? [`compared: ${summary.comparison.conclusion}`] : []),
    ].slice(0, MAX_REASONS),
    runId: summary.runId, workflowId: summary.workflowId, sites, model: summary.model,
    dataset: { path: summary.dataset, sha256: summary.datasetSha256 }, passRate: summary.passRate,
    counts: counts(summary), regressed: regressed.slice(0, MAX_REGRESSED_ROWS), regressedTotal,
    errors: errorLines(summary, examples), reportUrl: reportUrlFor(ctx.reportBaseUrl, summary.runId),
    startedAt: summary.startedAt, ...(summary.finishedAt && { finishedAt: summary.finishedAt }),
  };
}

/** What of a cleanup's report a notification needs (the workflow passes it; the report file may be on another host). */
export type CleanupFacts = Pick<CleanupReport, 'reportId' | 'workflowId' | 'siteId' | 'dryRun' | 'startedAt' | 'finishedAt' | 'counts' | 'failureReasons' | 'complete' | 'stoppedBy' | 'error'>;

export function cleanupVerdict(c: Pick<CleanupFacts, 'stoppedBy' | 'error' | 'counts'>): NotifyVerdict {
  if (c.stoppedBy === 'cancelled') return 'cancelled';
  return c.error !== undefined || c.counts.failed > 0 ? 'failed' : 'passed';
}

export function buildCleanupMessage(c: CleanupFacts): Draft {
  const verdict = cleanupVerdict(c);
  const reasons = [
    ...(c.error !== undefined ? [`stopped on an error: ${c.error}`] : []),
    ...(c.counts.failed > 0 ? [`${plural(c.counts.failed, 'session')} could not be closed`] : []),
    ...(verdict === 'cancelled' ? ['the cleanup was cancelled'] : []),
  ];
  const errors = Object.entries(c.failureReasons).sort((a, b) => b[1] - a[1]).map(([type, count]) => ({ type: clip(type, MAX_ERROR_TEXT) ?? type, count }));
  return {
    event: NotifyEvent.cleanup, verdict,
    title: `sitechat ${c.dryRun ? 'cleanup (dry run)' : 'cleanup'} ${c.reportId}: ${verdict.toUpperCase()} on site ${c.siteId}`,
    reasons, warnings: c.complete || c.stoppedBy === undefined ? [] : [`stopped before the end of the list (${c.stoppedBy})`],
    runId: c.reportId, workflowId: c.workflowId, sites: [c.siteId], model: null, passRate: null,
    counts: { ...c.counts }, regressed: [], regressedTotal: 0, errors,
    // Cleanup reports are one JSON file each (runs/cleanup-<id>.json), not a run directory with report.html.
    startedAt: c.startedAt, finishedAt: c.finishedAt,
  };
}

/** A sample message for `sitechat notify test`. */
export function sampleMessage(ctx: BuildContext): NotificationMessage {
  return {
    event: NotifyEvent.run, trigger: NotifyTrigger.always, verdict: 'failed',
    title: 'sitechat notify test: a sample message (no run ended)',
    reasons: ['pass rate 80.0% is below --fail-under 90.0% (sample)'], warnings: [],
    runId: 'notify-test', workflowId: 'sitechat-notify-test', sites: ['sample-site'], model: null,
    dataset: { path: 'datasets/sample.csv', sha256: '0'.repeat(64) }, passRate: 0.8,
    baseline: { runId: 'sample-baseline', passRate: 0.9, delta: -0.1, regressed: 1, fixed: 0 },
    counts: { passed: 8, failed: 2 }, regressed: [{ id: 'q1', question: 'How much does the Personal plan cost?', before: 'The Personal plan costs $9.99 a month.', now: 'I am not sure.' }],
    regressedTotal: 1, errors: [], reportUrl: reportUrlFor(ctx.reportBaseUrl, 'notify-test'),
  };
}
