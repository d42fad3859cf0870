import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { extraSends } from '../api/failureRules';
import { NOTIFICATIONS_FILE, notificationsJson } from './reportNote';
import type { BaselineInput } from '../analysis/baseline';
import type { BaselineChoice } from '../analysis/baselineSelect';
import { collectReportContext } from '../analysis/context';
import { writeFileAtomic } from '../shared/fileIo';
import { ReportFile } from '../store/files';
import { evaluateGate, gateSettingsOf, type GateOptions } from '../analysis/gate';
import { renderHtml } from './html';
import { renderJUnit } from './junit';
import { renderMarkdown, renderStepSummary } from './markdown';
import type { ResultsStore } from '../store/store';
import { summarize, type SummarizeOptions } from '../analysis/summary';
import { Outcome, RunKind, type GateResult, type RowResult, type RunMeta, type RunSummary } from '../domain/results';

/** Where each report file was written. */
export type ReportPaths = Record<keyof typeof ReportFile, string>;

/** `results.jsonl`: one line per row id, dataset order (as the store reads them). */
export async function* renderResultsJsonl(results: AsyncIterable<RowResult>): AsyncGenerator<string> {
  for await (const row of results) yield `${JSON.stringify(row)}\n`;
}

async function requireMeta(store: ResultsStore, runId: string): Promise<RunMeta> {
  const meta = await store.getMeta(runId);
  if (!meta) throw new Error(`reports: run ${runId} not found in the results store`);
  return meta;
}

export interface WriteReportsOptions {
  /** The baseline compared against, so regressed and fixed rows show its answers beside today's. */
  baseline?: BaselineInput;
}

/**
 * Renders all five report files of a run from the store into `outDir` (created if needed). Uses the
 * summary stored by `finish`; for a run not finished yet, a summary without baseline or gate.
 * Each file is written atomically and streamed from its own pass over the store. A run that notified has its
 * outcomes in report.md's "Notifications" section and in notifications.json.
 */
export async function writeReports(
  store: ResultsStore,
  runId: string,
  outDir: string,
  options: WriteReportsOptions = {},
): Promise<{ paths: ReportPaths }> {
  const summary = (await store.getSummary(runId)) ?? (await summarize(await requireMeta(store, runId), store.read(runId)));
  const context = await collectReportContext(store, runId, summary, options.baseline);
  const notifications = await store.getNotifications(runId);
  await mkdir(outDir, { recursive: true });
  const paths: ReportPaths = {
    summary: join(outDir, ReportFile.summary),
    results: join(outDir, ReportFile.results),
    markdown: join(outDir, ReportFile.markdown),
    junit: join(outDir, ReportFile.junit),
    html: join(outDir, ReportFile.html),
  };
  await writeFileAtomic(paths.summary, `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(paths.results, renderResultsJsonl(store.read(runId)));
  await writeFileAtomic(paths.markdown, await renderMarkdown(summary, store.read(runId), { context, notifications }));
  if (notifications) await writeFileAtomic(join(outDir, NOTIFICATIONS_FILE), notificationsJson(notifications));
  await writeFileAtomic(paths.junit, renderJUnit(summary, () => store.read(runId)));
  await writeFileAtomic(paths.html, renderHtml(summary, store.read(runId), { context }));
  return { paths };
}

export interface FinalizeOptions extends SummarizeOptions {
  /** Directory for the report files. */
  outDir: string;
  /** The baseline to compare with; or `baselineChoice`, which also says how it was chosen. */
  baseline?: BaselineInput;
  /** The outcome of `selectLatestBaseline` / `loadExplicitBaseline`; wins over `baseline`. */
  baselineChoice?: BaselineChoice;
  /** Quality-gate settings. `baselineGiven` defaults to whether a baseline was given or chosen. */
  gate?: Partial<GateOptions> & { baseline?: string };
  /** A file the Markdown headline and verdict are appended to (`GITHUB_STEP_SUMMARY`). */
  stepSummaryFile?: string;
  /** Why the run stopped before asking every row, with what to fix (src/domain/stopEarly.ts). @default it did not */
  stopped?: string;
}

/**
 * End of a run, as the report activity does it: summarize (with baseline), evaluate the gate (evaluation runs
 * only), store the summary and mark the run finished, then write the reports. Safe to repeat (a retried
 * activity recomputes the same summary and rewrites the same files; the step summary is appended once more).
 */
export async function finalizeRun(
  store: ResultsStore,
  runId: string,
  options: FinalizeOptions,
): Promise<{ summary: RunSummary; gate?: GateResult; paths: ReportPaths }> {
  const meta = await requireMeta(store, runId);
  const { outDir, baseline: given, baselineChoice, gate: gateOptions = {}, stepSummaryFile, stopped, ...rest } = options;
  const baseline = baselineChoice ? baselineChoice.baseline : given;
  const finishedAt = rest.finishedAt ?? meta.finishedAt ?? new Date().toISOString();
  const summarized = await summarize(meta, store.read(runId), baseline, { ...rest, finishedAt });
  const askedTwice = await countAskedTwice(store, runId);
  // Only a row without an answer (skipped, or an ask that failed) can leave its session open: a run that has none
  // skips the two extra reads.
  const mayLeaveOpen = meta.options?.closeSessions !== false && summarized.skipped + summarized.error > 0;
  const sessionsLeftOpen = mayLeaveOpen ? await findSessionsLeftOpen(store, runId) : undefined;
  const withSelection: RunSummary = {
    ...summarized, askedTwice, ...(stopped !== undefined && { stopped }), ...(sessionsLeftOpen && { sessionsLeftOpen }), ...(baselineChoice && { baselineSelection: baselineChoice.selection }),
  };
  let summary = withSelection;
  let gate: GateResult | undefined;
  if (meta.kind === RunKind.evaluation) {
    const settings: GateOptions = {
      ...gateOptions,
      baselineGiven: gateOptions.baselineGiven ?? (baselineChoice !== undefined || baseline !== undefined),
      baselineUnavailable: gateOptions.baselineUnavailable ?? baselineChoice?.unavailable,
    };
    gate = evaluateGate(withSelection, settings);
    summary = { ...withSelection, gateSettings: gateSettingsOf({ ...settings, baseline: gateOptions.baseline ?? baselineChoice?.selection.requested }), gate };
  }
  await store.finish(runId, summary);
  const { paths } = await writeReports(store, runId, outDir, { baseline });
  if (stepSummaryFile) await appendFile(stepSummaryFile, renderStepSummary(summary), 'utf8');
  return { summary, gate, paths };
}

/** Rows listed by id in `askedTwice`; the count covers all of them. */
const ASKED_TWICE_LISTED = 50;

async function countAskedTwice(store: ResultsStore, runId: string): Promise<RunSummary['askedTwice']> {
  const rowIds: string[] = [];
  let count = 0;
  let extra = 0;
  for await (const s of store.readSubmissions(runId)) {
    const row = extraSends(s);
    if (row === 0) continue;
    count += 1;
    extra += row;
    if (rowIds.length < ASKED_TWICE_LISTED) rowIds.push(s.rowId);
  }
  return { count, rowIds: rowIds.sort(), extraSends: extra };
}

/** Sessions listed by id in `sessionsLeftOpen`; the count covers all of them. */
const LEFT_OPEN_LISTED = 20;

/**
 * Sessions in which the API accepted a question (the store's submission records) but no row of the run has an
 * answer: the run closes a conversation's session only once one of its turns was answered, so these stayed open
 * (a cancel that abandoned them, a run that failed). Two streaming passes; memory bounded by the sessions' number.
 */
async function findSessionsLeftOpen(store: ResultsStore, runId: string): Promise<RunSummary['sessionsLeftOpen']> {
  const accepted = new Set<string>();
  for await (const s of store.readSubmissions(runId)) if (s.requestId && s.sessionId) accepted.add(s.sessionId);
  if (accepted.size === 0) return undefined;
  for await (const row of store.read(runId)) {
    if (row.sessionId && row.requestId && row.outcome !== Outcome.skipped) accepted.delete(row.sessionId);
    // A re-asked turn's failed sessions were closed by the run (a close that failed is recorded as such).
    for (const r of row.reasked ?? []) accepted.delete(r.sessionId);
  }
  if (accepted.size === 0) return undefined;
  return { count: accepted.size, sessionIds: [...accepted].sort().slice(0, LEFT_OPEN_LISTED) };
}
