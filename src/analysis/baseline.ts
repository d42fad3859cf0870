import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ReportFile } from '../store/files';
import { isNotFound, readJsonIfExists, scanLines } from '../shared/fileIo';
import type { ConfirmTally } from './confirmTally';
import { regressionFailsGate } from './gate';
import { RepeatTally } from './repeatTally';
import { plural } from '../shared/plural';
import { cochranMantelHaenszel, type RowCounts, type Stratum } from './repeatStats';
import { addToTag, DEFAULT_ALPHA, mcnemarExact } from './stats';
import type { ResultsStore } from '../store/store';
import { Outcome, type BaselineComparison, type RowResult, type RunSummary, type TagStats } from '../domain/results';

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
  /** Passed and graded answers per dataset row, when the baseline asked rows more than once (`--repeat`). */
  repeated?: { repeat: number; rows: ReadonlyMap<string, RowCounts> };
}

/**
 * Streaming paired comparison with a baseline. Only rows graded in both runs (passed or failed)
 * are paired, the same population as the pass rate; errors and time-outs are reported elsewhere.
 */
export class BaselineDiff {
  private readonly regressed: string[] = [];
  private readonly fixed: string[] = [];
  private compared = 0;
  private readonly byRow = new RepeatTally(false);

  constructor(private readonly baseline: BaselineInput, private readonly alpha = DEFAULT_ALPHA) {}

  /** Feed rows in dataset order. */
  add(row: Pick<RowResult, 'id' | 'outcome' | 'baseId' | 'repeat'>): void {
    this.byRow.add(row);
    const before = this.baseline.outcomes.get(row.id);
    if (!isGraded(before) || !isGraded(row.outcome)) return;
    this.compared++;
    if (before === Outcome.passed && row.outcome === Outcome.failed) this.regressed.push(row.id);
    if (before === Outcome.failed && row.outcome === Outcome.passed) this.fixed.push(row.id);
  }

  /**
   * @param confirmed the run's confirming answers (`--confirm`): regressions they do not reproduce are left out;
   * regressed rows never asked again count as their first answers say.
   */
  result(passRate: number | null, confirmed?: ConfirmTally): BaselineComparison {
    const first = this.without(passRate, new Set());
    if (!confirmed || confirmed.empty) return first;
    const judged = confirmed.judge(first.regressed);
    const noise = new Set(judged.notReproduced);
    const cmp = noise.size > 0 ? this.without(passRate, noise) : first;
    // Sequential confirmation stops once the rows left could not change the verdict; a cancel can stop it earlier.
    const unconfirmed = judged.unconfirmed ?? [];
    const open = unconfirmed.length > 0 && regressionFailsGate(cmp) !== regressionFailsGate(this.without(passRate, new Set([...noise, ...unconfirmed])));
    return { ...cmp, confirmation: open ? { ...judged, undecided: true } : judged };
  }

  /** The comparison with the `noise` rows' regressions left out (a confirmation did not reproduce them). */
  without(passRate: number | null, noise: ReadonlySet<string>): BaselineComparison {
    const base = this.baseline.passRate;
    const repeated = this.byRow.repeat > 1 || (this.baseline.repeated?.repeat ?? 1) > 1;
    if (repeated) return { ...this.rowwise(noise), passRate: base, delta: passRate === null || base === null ? null : passRate - base };
    const regressed = this.regressed.filter((id) => !noise.has(id));
    return {
      runId: this.baseline.runId,
      passRate: base,
      delta: passRate === null || base === null ? null : passRate - base,
      compared: this.compared,
      regressed,
      fixed: this.fixed,
      mcnemar: mcnemarExact(regressed.length, this.fixed.length, this.alpha),
      ...(this.baseline.byTag && { byTag: this.baseline.byTag }),
    };
  }

  private rowwise(noise: ReadonlySet<string>): Omit<BaselineComparison, 'passRate' | 'delta'> {
    const baselineRows = this.baseline.repeated?.rows ?? countsOf(this.baseline.outcomes);
    const repeats = { baseline: this.baseline.repeated?.repeat ?? 1, run: this.byRow.repeat };
    return {
      runId: this.baseline.runId,
      ...compareRowwise(baselineRows, this.byRow.counts(), repeats, this.alpha, noise),
      ...(this.baseline.byTag && { byTag: this.baseline.byTag }),
    };
  }
}

/** A baseline without repeats as counts per row: one answer each. */
function countsOf(outcomes: ReadonlyMap<string, Outcome>): Map<string, RowCounts> {
  const rows = new Map<string, RowCounts>();
  for (const [id, o] of outcomes) rows.set(id, { passed: o === Outcome.passed ? 1 : 0, graded: isGraded(o) ? 1 : 0 });
  return rows;
}

/**
 * With repeats on either side, rows are compared by their pass rates over their answers: a row regressed when its
 * rate fell. The test is CMH with each row a stratum (src/analysis/repeatStats.ts); `mcnemar` keeps the row counts.
 */
function compareRowwise(
  baselineRows: ReadonlyMap<string, RowCounts>,
  runRows: ReadonlyMap<string, RowCounts>,
  repeats: { baseline: number; run: number },
  alpha: number,
  noise: ReadonlySet<string>,
): Omit<BaselineComparison, 'runId' | 'passRate' | 'delta' | 'byTag'> {
  const regressed: string[] = [];
  const fixed: string[] = [];
  const strata: Stratum[] = [];
  let dropSum = 0;
  for (const [id, run] of runRows) {
    const baseline = baselineRows.get(id);
    if (!baseline || baseline.graded === 0 || run.graded === 0 || noise.has(id)) continue;
    strata.push({ baseline, run });
    const drop = baseline.passed / baseline.graded - run.passed / run.graded;
    dropSum += drop;
    if (drop > 0) regressed.push(id);
    if (drop < 0) fixed.push(id);
  }
  const cmh = cochranMantelHaenszel(strata);
  const drop = strata.length === 0 ? 0 : dropSum / strata.length;
  const significant = cmh.pValue < alpha && cmh.excess > 0 && drop >= MIN_REPEATED_DROP;
  return {
    compared: strata.length,
    regressed,
    fixed,
    mcnemar: mcnemarExact(regressed.length, fixed.length, alpha),
    repeated: {
      baselineRepeat: repeats.baseline, runRepeat: repeats.run, rows: strata.length, informative: cmh.informative,
      statistic: cmh.statistic, pValue: cmh.pValue, alpha, drop, minDrop: MIN_REPEATED_DROP, significant,
    },
  };
}

function isGraded(outcome: Outcome | undefined): boolean {
  return outcome === Outcome.passed || outcome === Outcome.failed;
}

/**
 * With repeats, the mean per-row pass rate must also fall by at least this much (5 points) before the gate fails:
 * with 3 answers per row the test finds drops of a point or two on a few hundred rows, changes too small to act on
 * and within what a model update or a re-indexed page moves from night to night (docs/reports.md, "Repeats").
 */
export const MIN_REPEATED_DROP = 0.05;

/** One sentence on whether the change against the baseline is beyond noise. */
export function baselineVerdict(cmp: BaselineComparison): string {
  if (cmp.repeated) return repeatedVerdict(cmp, cmp.repeated);
  const { b, c, pValue, significant, alpha } = cmp.mcnemar;
  const counts = `${b} regressed, ${c} fixed of ${plural(cmp.compared, 'row')} graded in both runs`;
  const p = `McNemar exact p = ${pValue.toPrecision(3)}`;
  if (!significant) return `No significant change against ${cmp.runId}: ${counts} (${p}, α = ${alpha}).`;
  const direction = b > c ? 'Significant regression' : 'Significant improvement';
  return `${direction} against ${cmp.runId}: ${counts} (${p} < ${alpha}).`;
}

function repeatedVerdict(cmp: BaselineComparison, r: NonNullable<BaselineComparison['repeated']>): string {
  const counts = `${plural(cmp.regressed.length, 'row')} fell, ${cmp.fixed.length} rose of ${plural(r.rows, 'row')} graded in both runs (${r.baselineRepeat} vs ${r.runRepeat} answers per row)`;
  const test = `CMH p = ${r.pValue.toPrecision(3)}, mean per-row drop ${(r.drop * 100).toFixed(1)} points`;
  if (r.significant) return `Significant regression against ${cmp.runId}: ${counts} (${test}; p < ${r.alpha} and drop ≥ ${(r.minDrop * 100).toFixed(0)} points).`;
  return `No significant regression against ${cmp.runId}: ${counts} (${test}; fails at p < ${r.alpha} with a drop ≥ ${(r.minDrop * 100).toFixed(0)} points).`;
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
async function collectOutcomes(rows: AsyncIterable<RowResult>): Promise<Collected> {
  const outcomes = new Map<string, Outcome>();
  const byTag = Object.create(null) as Record<string, TagStats>;
  const byRow = new RepeatTally(false);
  for await (const row of rows) {
    // A confirming answer (`--confirm`) is not a row of the baseline run.
    if (row.confirm !== undefined) continue;
    outcomes.set(row.id, row.outcome);
    byRow.add(row);
    for (const tag of new Set(row.tags ?? [])) addToTag((byTag[tag] ??= { total: 0, passed: 0, failed: 0, graded: 0 }), row.outcome);
  }
  return { outcomes, byTag, ...(byRow.repeat > 1 && { repeated: { repeat: byRow.repeat, rows: byRow.counts() } }) };
}

interface Collected {
  outcomes: Map<string, Outcome>;
  byTag: Record<string, TagStats>;
  repeated?: BaselineInput['repeated'];
}

function toBaseline(
  runId: string,
  summary: RunSummary | undefined,
  collected: Collected,
  readRows: () => AsyncIterable<RowResult>,
): BaselineInput {
  return {
    runId: summary?.runId ?? runId,
    passRate: summary ? summary.passRate : passRateOf(collected.outcomes.values()),
    outcomes: collected.outcomes,
    byTag: collected.byTag,
    ...(collected.repeated && { repeated: collected.repeated }),
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
