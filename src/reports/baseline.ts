import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ReportFile } from './files';
import { isNotFound, readJsonIfExists, scanLines } from './fileIo';
import { addToTag, DEFAULT_ALPHA, mcnemarExact } from './stats';
import type { ResultsStore } from './store';
import { Outcome, type BaselineComparison, type RowResult, type RunSummary, type TagStats } from './types';

/** What a run is compared against: the outcome of every row of an earlier run. */
export interface BaselineInput {
  runId: string;
  /** The baseline's pass rate as reported; recomputed from `outcomes` when it has no summary. */
  passRate: number | null;
  outcomes: ReadonlyMap<string, Outcome>;
  /** The baseline's numbers per tag, counted from its rows. */
  byTag?: Record<string, TagStats>;
  /** The baseline's summary, when it has one (its model, dataset, whether it was cancelled). */
  summary?: RunSummary;
  /** Streams the baseline's rows again, for the answers of the rows that regressed or were fixed. */
  readRows?: () => AsyncIterable<RowResult>;
}

/**
 * Streaming paired comparison with a baseline. Only rows graded in both runs (passed or failed)
 * are paired, the same population as the pass rate; errors and time-outs are reported elsewhere.
 */
export class BaselineDiff {
  private readonly regressed: string[] = [];
  private readonly fixed: string[] = [];
  private compared = 0;

  constructor(private readonly baseline: BaselineInput, private readonly alpha = DEFAULT_ALPHA) {}

  /** Feed rows in dataset order. */
  add(row: Pick<RowResult, 'id' | 'outcome'>): void {
    const before = this.baseline.outcomes.get(row.id);
    if (!isGraded(before) || !isGraded(row.outcome)) return;
    this.compared++;
    if (before === Outcome.passed && row.outcome === Outcome.failed) this.regressed.push(row.id);
    if (before === Outcome.failed && row.outcome === Outcome.passed) this.fixed.push(row.id);
  }

  result(passRate: number | null): BaselineComparison {
    const base = this.baseline.passRate;
    return {
      runId: this.baseline.runId,
      passRate: base,
      delta: passRate === null || base === null ? null : passRate - base,
      compared: this.compared,
      regressed: this.regressed,
      fixed: this.fixed,
      mcnemar: mcnemarExact(this.regressed.length, this.fixed.length, this.alpha),
      ...(this.baseline.byTag && { byTag: this.baseline.byTag }),
    };
  }
}

function isGraded(outcome: Outcome | undefined): boolean {
  return outcome === Outcome.passed || outcome === Outcome.failed;
}

/** One sentence on whether the change against the baseline is beyond noise. */
export function baselineVerdict(cmp: BaselineComparison): string {
  const { b, c, pValue, significant, alpha } = cmp.mcnemar;
  const counts = `${b} regressed, ${c} fixed of ${cmp.compared} rows graded in both runs`;
  const p = `McNemar exact p = ${pValue.toPrecision(3)}`;
  if (!significant) return `No significant change against ${cmp.runId}: ${counts} (${p}, α = ${alpha}).`;
  const direction = b > c ? 'Significant regression' : 'Significant improvement';
  return `${direction} against ${cmp.runId}: ${counts} (${p} < ${alpha}).`;
}

/** Pass rate of the graded outcomes in `outcomes`. */
function passRateOf(outcomes: Iterable<Outcome>): number | null {
  let passed = 0;
  let graded = 0;
  for (const o of outcomes) {
    if (o === Outcome.passed) passed++;
    if (isGraded(o)) graded++;
  }
  return graded === 0 ? null : passed / graded;
}

/** Outcomes and per-tag numbers of a baseline's rows, in one pass. */
async function collectOutcomes(rows: AsyncIterable<RowResult>): Promise<{ outcomes: Map<string, Outcome>; byTag: Record<string, TagStats> }> {
  const outcomes = new Map<string, Outcome>();
  const byTag = Object.create(null) as Record<string, TagStats>;
  for await (const row of rows) {
    outcomes.set(row.id, row.outcome);
    for (const tag of new Set(row.tags ?? [])) addToTag((byTag[tag] ??= { total: 0, passed: 0, failed: 0, graded: 0 }), row.outcome);
  }
  return { outcomes, byTag };
}

function toBaseline(
  runId: string,
  summary: RunSummary | undefined,
  collected: { outcomes: Map<string, Outcome>; byTag: Record<string, TagStats> },
  readRows: () => AsyncIterable<RowResult>,
): BaselineInput {
  return {
    runId: summary?.runId ?? runId,
    passRate: summary ? summary.passRate : passRateOf(collected.outcomes.values()),
    outcomes: collected.outcomes,
    byTag: collected.byTag,
    ...(summary && { summary }),
    readRows,
  };
}

/** The rows of a `results.jsonl`, streamed; blank lines skipped. */
async function* readResultsFile(path: string): AsyncGenerator<RowResult> {
  for await (const { text } of scanLines(path)) {
    if (text.trim() !== '') yield JSON.parse(text) as RowResult;
  }
}

/**
 * Loads a finished run written by `writeReports`: its `results.jsonl` (id → outcome) and, when
 * present, `summary.json`. Accepts the run directory or the path of any file in it.
 */
export async function loadBaseline(runDirOrSummaryPath: string): Promise<BaselineInput> {
  const info = await stat(runDirOrSummaryPath).catch((err: unknown) => {
    if (isNotFound(err)) throw new Error(`baseline ${runDirOrSummaryPath}: no such file or directory`);
    throw err;
  });
  const dir = info.isDirectory() ? runDirOrSummaryPath : dirname(runDirOrSummaryPath);
  const summary = (await readJsonIfExists(join(dir, ReportFile.summary)).catch((err: unknown) => {
    throw new Error(`baseline ${dir}: ${ReportFile.summary} is unreadable (${err instanceof Error ? err.message : String(err)})`);
  })) as RunSummary | undefined;
  const results = join(dir, ReportFile.results);
  try {
    return toBaseline(basename(dir), summary, await collectOutcomes(readResultsFile(results)), () => readResultsFile(results));
  } catch (err) {
    if (isNotFound(err)) throw new Error(`baseline ${dir}: no results.jsonl (were its reports written?)`);
    throw new Error(`baseline ${dir}: ${ReportFile.results} is unreadable (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Loads a baseline straight from a results store (works with any store, not only files). */
export async function loadBaselineFromStore(store: ResultsStore, runId: string): Promise<BaselineInput> {
  const summary = await store.getSummary(runId);
  return toBaseline(runId, summary, await collectOutcomes(store.read(runId)), () => store.read(runId));
}

/** The baseline rows of the given ids (regressed and fixed rows), streamed; memory holds only those. */
export async function baselineRowsFor(baseline: BaselineInput | undefined, ids: ReadonlySet<string>): Promise<Map<string, RowResult>> {
  const found = new Map<string, RowResult>();
  if (!baseline?.readRows || ids.size === 0) return found;
  for await (const row of baseline.readRows()) {
    if (ids.has(row.id)) found.set(row.id, row);
  }
  return found;
}
