/**
 * Run history: the finished runs of a results store as one line each (`sitechat runs`), and `history.html`, the
 * pass and error rates of every dataset and site over time.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { ReportFile } from '../store/files';
import { verdictLabel } from '../analysis/gate';
import { AnswerSource, fromSimulator, type Provenance } from '../domain/provenance';
import { readReportDirs } from './reportDirs';
import type { ResultsStore } from '../store/store';
import { CorruptRunFileError } from '../store/errors';
import { GateVerdict, type RunMeta, type RunSummary } from '../domain/results';

/** The verdict of a finished run, as `sitechat runs` and history.html show it: the gate's. */
export const RunVerdict = GateVerdict;
export type RunVerdict = GateVerdict;

const VERDICTS = new Set<string>(Object.values(RunVerdict));

/** File name of the history page in the runs directory. */
export const HISTORY_FILE = 'history.html';

/**
 * What made a run: an evaluation (the trend), a re-grade of recorded answers (`sitechat grade`) or a backfill. Only
 * evaluations are on a trend line: a re-grade repeats answers already plotted, a backfill grades nothing.
 */
export const RunOrigin = { evaluation: 'evaluation', regrade: 'regrade', backfill: 'backfill' } as const;
export type RunOrigin = (typeof RunOrigin)[keyof typeof RunOrigin];

/** One finished run, in a line: who it was (as its summary says), and its headline numbers. */
export interface HistoryEntry extends Pick<RunSummary, 'runId' | 'kind' | 'dataset' | 'datasetSha256' | 'siteId' | 'model' | 'startedAt' | 'finishedAt'> {
  /** Rows with a result. */
  rows: number;
  /** passed / graded; null when nothing was graded (backfills). */
  passRate: number | null;
  /** Rows left `uncertain` (needs review); 0 for runs before the outcome existed. */
  uncertain: number;
  /** Rows that ended in `error` or `timed_out`. */
  errors: number;
  /** errors / rows; null for a run without rows. */
  errorRate: number | null;
  verdict: RunVerdict;
  /** Why the run failed or was cancelled (the gate's reasons); empty for a run that passed or was not judged. */
  reasons: string[];
  origin: RunOrigin;
  /**
   * Where the answers came from, as runs are kept apart by it: `simulator` (the built-in one, also for a re-grade of its
   * answers), `api <host>`, or undefined for runs recorded before it was (their summaries have no provenance).
   */
  source?: string;
  /** Absolute path of the run's report.html on this host: where `--out` put it, else in the run's directory. */
  reportHtml?: string;
  /** The answer language and locale the run set for its rows (a variant's `response_language`, `ui_locale`), when it did. */
  language?: string;
  locale?: string;
  /** A variant of a matrix or multi-site run: the parent run and the variant's name (its site in a multi-site run). */
  parent?: { runId: string; variant: string };
}

/** A matrix or multi-site run as the history shows it: its variants' runs, and the combined report when found here. */
export interface ParentGroup {
  runId: string;
  /** Newest first, as the entries came. */
  variants: HistoryEntry[];
  reportHtml?: string;
}

/** Which runs to list; every given field must match. */
export interface HistoryFilter {
  /** A dataset path (as given or resolved), its file name, or a prefix of its sha256 (at least 8 hex digits). */
  dataset?: string;
  siteId?: string;
}

export interface HistoryOptions extends HistoryFilter {
  /**
   * Told of each run left out because a file of it is corrupt (`CorruptRunFileError`: which file, what is wrong):
   * one bad summary.json does not hide every other run. @default nobody (the run is left out silently)
   */
  onSkip?: (warning: string) => void;
}

/**
 * The verdict of a summary: `gate.verdict` when the summary has one; otherwise `cancelled` when the run was
 * cancelled, and `passed` / `failed` from `gate.passed` (summaries written before verdicts existed).
 */
export function verdictOf(summary: RunSummary): RunVerdict {
  // Summaries on disk may predate verdicts (or come from elsewhere): every field is checked, none trusted.
  const { gate } = summary as Partial<RunSummary>;
  if (gate && VERDICTS.has(gate.verdict)) return gate.verdict;
  if ((summary as Partial<RunSummary>).cancelled === true) return RunVerdict.cancelled;
  if (!gate) return RunVerdict.noThreshold;
  return gate.passed ? RunVerdict.passed : RunVerdict.failed;
}

/** The verdict in the reports' words ("PASSED", "FAILED", "no quality threshold set"); a backfill has none. */
export function verdictWords(e: Pick<HistoryEntry, 'verdict' | 'kind'>): string {
  return e.kind === 'backfill' ? 'none (backfill)' : verdictLabel(e.verdict);
}

/** `simulator` or `api <host>`: where a run's answers came from, so that runs of the simulator and of a real API are kept apart. */
export function sourceOf(p: Provenance | undefined): string | undefined {
  if (!p) return undefined;
  if (fromSimulator(p)) return 'simulator';
  return p.answers.host === undefined ? p.answers.from : `${AnswerSource.api} ${p.answers.host}`;
}

/** True when `meta` belongs to the dataset named by `wanted`. */
function datasetMatches(meta: RunMeta, wanted: string): boolean {
  if (wanted === meta.dataset || resolve(wanted) === meta.dataset || wanted === basename(meta.dataset)) return true;
  return /^[0-9a-f]{8,64}$/iu.test(wanted) && meta.datasetSha256.toLowerCase().startsWith(wanted.toLowerCase());
}

/** Directory of a run in a file store under `runsDir` (as FileResultsStore names it). */
function runDirOf(runsDir: string, runId: string): string {
  return join(runsDir, encodeURIComponent(runId));
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

/** `sitechat grade` records its runs with a `grade` option (and a `sitechat-grade-` workflow id). */
export function originOf(meta: RunMeta): RunOrigin {
  if (meta.kind === 'backfill') return RunOrigin.backfill;
  return meta.options?.grade !== undefined || meta.workflowId.startsWith('sitechat-grade-') ? RunOrigin.regrade : RunOrigin.evaluation;
}

/** `options.variant` of a variant's run (src/domain/run.ts RunOptions), checked: meta from disk is not trusted. */
function parentOf(meta: RunMeta): HistoryEntry['parent'] {
  const v = meta.options?.variant as { parentRunId?: unknown; name?: unknown } | undefined;
  return v && typeof v.parentRunId === 'string' && typeof v.name === 'string' ? { runId: v.parentRunId, variant: v.name } : undefined;
}

/** The parents of the variants among `entries`, in order of their newest variant. */
export function parentGroups(entries: readonly HistoryEntry[]): ParentGroup[] {
  const groups = new Map<string, ParentGroup>();
  for (const e of entries) {
    if (!e.parent) continue;
    const g = groups.get(e.parent.runId) ?? { runId: e.parent.runId, variants: [] };
    g.variants.push(e);
    groups.set(e.parent.runId, g);
  }
  return [...groups.values()];
}

/**
 * Where a parent's combined report.html is on this host: beside its variants' directories (`<runsDir>/<runId>/`), or
 * above them when `--out DIR` put the variants in `DIR/<variant>/`.
 */
export async function parentReport(runsDir: string, g: ParentGroup): Promise<string | undefined> {
  const candidates = [resolve(runDirOf(runsDir, g.runId), ReportFile.html)];
  for (const v of g.variants) {
    if (v.reportHtml && v.parent && basename(dirname(v.reportHtml)) === v.parent.variant) candidates.push(resolve(dirname(dirname(v.reportHtml)), ReportFile.html));
  }
  for (const c of candidates) if (await isFile(c)) return c;
  return undefined;
}

function entryOf(meta: RunMeta, summary: RunSummary, reportHtml: string | undefined): HistoryEntry {
  const errors = summary.error + summary.timedOut;
  const parent = parentOf(meta);
  const source = sourceOf(summary.provenance ?? meta.provenance);
  return {
    runId: meta.runId,
    kind: meta.kind,
    dataset: meta.dataset,
    datasetSha256: meta.datasetSha256,
    siteId: meta.siteId,
    model: summary.model ?? meta.model ?? null,
    startedAt: summary.startedAt ?? meta.startedAt,
    finishedAt: summary.finishedAt ?? meta.finishedAt ?? null,
    rows: summary.total,
    passRate: summary.passRate,
    // Summaries from before the outcome existed have none.
    uncertain: summary.uncertain ?? 0,
    errors,
    errorRate: summary.total === 0 ? null : errors / summary.total,
    verdict: verdictOf(summary),
    // Summaries on disk may predate gates: every field is checked.
    reasons: Array.isArray(summary.gate?.reasons) ? summary.gate.reasons.filter((r): r is string => typeof r === 'string') : [],
    origin: originOf(meta),
    ...(source !== undefined && { source }),
    ...(reportHtml ? { reportHtml } : {}),
    ...(typeof meta.options?.responseLanguage === 'string' && { language: meta.options.responseLanguage }),
    ...(typeof meta.options?.uiLocale === 'string' && { locale: meta.options.uiLocale }),
    ...(parent && { parent }),
  };
}

/**
 * The finished runs of `store`, newest first. `runsDir` is where the run directories are, and where this host noted
 * the reports it wrote elsewhere (`--out`, `recordReportDir`): each run links the first report.html found there.
 */
export async function collectHistory(store: ResultsStore, runsDir: string, options: HistoryOptions = {}): Promise<HistoryEntry[]> {
  const metas = (await store.listRuns({ finished: true, siteId: options.siteId }))
    .filter((m) => options.dataset === undefined || datasetMatches(m, options.dataset));
  const elsewhere = await readReportDirs(runsDir);
  const entries = await Promise.all(metas.map(async (meta) => {
    const summary = await readSummary(store, meta.runId, options.onSkip);
    if (!summary) return undefined;
    const candidates = [elsewhere.get(meta.runId), runDirOf(runsDir, meta.runId)].filter((d): d is string => d !== undefined).map((d) => resolve(d, ReportFile.html));
    let report: string | undefined;
    for (const candidate of candidates) {
      if (await isFile(candidate)) {
        report = candidate;
        break;
      }
    }
    return entryOf(meta, summary, report);
  }));
  return entries.filter((e): e is HistoryEntry => e !== undefined);
}

async function readSummary(store: ResultsStore, runId: string, onSkip: HistoryOptions['onSkip']): Promise<RunSummary | undefined> {
  try {
    return await store.getSummary(runId);
  } catch (err) {
    if (!(err instanceof CorruptRunFileError)) throw err;
    onSkip?.(`${err.message}: run ${runId} is left out`);
    return undefined;
  }
}

/** A link from the page at `fromFile` to `target`, relative, each path segment URL-encoded. */
export function relativeHref(fromFile: string, target: string): string {
  return relative(dirname(resolve(fromFile)), target).split(sep).map(encodeURIComponent).join('/');
}
