import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ReportFile } from './files';
import { isNotFound, readJsonIfExists, scanLines } from './fileIo';
import { DEFAULT_ALPHA, mcnemarExact } from './stats';
import type { ResultsStore } from './store';
import { Outcome, RunKind, type BaselineComparison, type RowResult, type RunMeta, type RunSummary } from './types';

/** What a run is compared against: the outcome of every row of an earlier run. */
export interface BaselineInput {
  runId: string;
  /** The baseline's pass rate as reported; recomputed from `outcomes` when it has no summary. */
  passRate: number | null;
  outcomes: ReadonlyMap<string, Outcome>;
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

function toBaseline(runId: string, summary: RunSummary | undefined, outcomes: Map<string, Outcome>): BaselineInput {
  return { runId: summary?.runId ?? runId, passRate: summary ? summary.passRate : passRateOf(outcomes.values()), outcomes };
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
  const summary = (await readJsonIfExists(join(dir, ReportFile.summary))) as RunSummary | undefined;
  const outcomes = new Map<string, Outcome>();
  try {
    for await (const { text } of scanLines(join(dir, ReportFile.results))) {
      if (text.trim() === '') continue;
      const row = JSON.parse(text) as RowResult;
      outcomes.set(row.id, row.outcome);
    }
  } catch (err) {
    if (isNotFound(err)) throw new Error(`baseline ${dir}: no results.jsonl (were its reports written?)`);
    throw err;
  }
  return toBaseline(basename(dir), summary, outcomes);
}

/** Loads a baseline straight from a results store (works with any store, not only files). */
export async function loadBaselineFromStore(store: ResultsStore, runId: string): Promise<BaselineInput> {
  const outcomes = new Map<string, Outcome>();
  for await (const row of store.read(runId)) outcomes.set(row.id, row.outcome);
  return toBaseline(runId, await store.getSummary(runId), outcomes);
}

/**
 * The newest finished evaluation run of the same dataset on the same site, for `--baseline latest`;
 * `excludeRunId` keeps the current run out. `dataset` is a sha256 (only runs over identical
 * questions) or a path (follows a dataset file as it gains rows; rows still pair by id).
 */
export async function findLatestRun(
  store: ResultsStore,
  dataset: string,
  siteId: string,
  excludeRunId?: string,
): Promise<RunMeta | undefined> {
  const runs = await store.listRuns({ dataset, siteId, finished: true, kind: RunKind.evaluation });
  return runs.find((run) => run.runId !== excludeRunId);
}
