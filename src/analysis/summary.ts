import type { AssertionResult } from '../domain/grade';
import { BaselineDiff, type BaselineInput } from './baseline';
import { errorTypeOf } from './cause';
import { ErrorGroups } from './errorGroups';
import { ConfirmTally } from './confirmTally';
import { RepeatTally } from './repeatTally';
import { addToTag, histogram, niceCeil, percentile } from './stats';
import { DecidedBy, Outcome, type RowResult, type RunMeta, type RunSummary, type TagStats } from '../domain/results';

/** Extra facts the rows do not carry. */
export interface SummarizeOptions {
  /** Sessions opened and closed, as counted by the workflow. @default opened = distinct `sessionId`s, closed = null */
  sessions?: { opened: number; closed: number | null; closeFailed?: number | null };
  /**
   * Sessions closed, as counted by the workflow, when only that is known: opened is then counted from the rows
   * (distinct `sessionId`s). Ignored when `sessions` is given.
   */
  sessionsClosed?: number;
  /** Sessions the workflow could not close (with `sessionsClosed`). @default null (not reported) */
  sessionsCloseFailed?: number;
  /** The run was cancelled. @default false */
  cancelled?: boolean;
  /** End of the run (ISO). @default `meta.finishedAt`, else the latest row `finishedAt`, else null */
  finishedAt?: string;
}

/** Latency histogram bins; confidence (0–100) uses 10 bins of 10. */
const LATENCY_BINS = 20;
const CONFIDENCE_BINS = 10;

const counterKey = {
  [Outcome.passed]: 'passed',
  [Outcome.failed]: 'failed',
  [Outcome.uncertain]: 'uncertain',
  [Outcome.answered]: 'answered',
  [Outcome.error]: 'error',
  [Outcome.timedOut]: 'timedOut',
  [Outcome.skipped]: 'skipped',
} as const satisfies Record<Outcome, keyof RunSummary>;

type Counts = Record<(typeof counterKey)[Outcome], number>;

/**
 * Streams over `results` once (memory: one number per latency/confidence, one entry per tag and per
 * session id) and returns the run's headline numbers; with a baseline, also the paired comparison.
 */
export async function summarize(
  meta: RunMeta,
  results: AsyncIterable<RowResult>,
  baseline?: BaselineInput,
  options: SummarizeOptions = {},
): Promise<RunSummary> {
  const counts: Counts = { passed: 0, failed: 0, uncertain: 0, answered: 0, error: 0, timedOut: 0, skipped: 0 };
  const feedback = { good: 0, bad: 0, failed: 0 };
  const latencies: number[] = [];
  const confidences: number[] = [];
  const sessionIds = new Set<string>();
  // Null-prototype maps: tags and error types are free text (a tag `__proto__` must stay a tag).
  const byTag = Object.create(null) as Record<string, TagStats>;
  const errorsByType = Object.create(null) as Record<string, number>;
  const diff = baseline && new BaselineDiff(baseline);
  const byRow = new RepeatTally();
  const confirmed = new ConfirmTally();
  const judge = { calls: 0, cached: 0, tokens: 0 };
  const escalated = { rows: 0, passed: 0, failed: 0, unsettled: 0, calls: 0, cached: 0, tokens: 0 };
  const reasked = new ReaskTally();
  const causes = new ErrorGroups();
  let unobserved = 0;
  let reviewed = 0;
  let total = 0;
  let lastFinishedAt: string | undefined;

  for await (const row of results) {
    // A confirming answer (`--confirm`) is evidence about a regression, not a row of the run.
    // Its session and feedback are the run's all the same.
    if (row.confirm !== undefined) {
      confirmed.add(row);
      if (row.sessionId) sessionIds.add(row.sessionId);
      if (row.feedback) feedback[row.feedback]++;
      continue;
    }
    total++;
    counts[counterKey[row.outcome]]++;
    if (row.feedback) feedback[row.feedback]++;
    if (typeof row.latencyMs === 'number') latencies.push(row.latencyMs);
    if (row.latencyUnobservedMs) unobserved++;
    if (typeof row.confidenceScore === 'number') confidences.push(row.confidenceScore);
    if (row.sessionId) sessionIds.add(row.sessionId);
    // A re-asked first turn's failed sessions were opened (and closed) by the run too.
    for (const r of row.reasked ?? []) sessionIds.add(r.sessionId);
    reasked.add(row);
    for (const tag of new Set(row.tags ?? [])) addToTag((byTag[tag] ??= { total: 0, passed: 0, failed: 0, graded: 0 }), row.outcome);
    const type = errorTypeOf(row);
    if (type !== undefined) errorsByType[type] = (errorsByType[type] ?? 0) + 1;
    causes.add(row);
    if (row.finishedAt && (!lastFinishedAt || Date.parse(row.finishedAt) > Date.parse(lastFinishedAt))) {
      lastFinishedAt = row.finishedAt;
    }
    for (const a of row.assertions ?? []) addJudged(judge, a.judge);
    addEscalated(escalated, row);
    if (row.decision?.by === DecidedBy.label) reviewed++;
    diff?.add(row);
    // Only rows of a run with repeats carry `repeat`: a run without keeps its memory to one number per row.
    if (row.repeat !== undefined) byRow.add(row);
  }

  const sorted = Float64Array.from(latencies).sort();
  const max = sorted.length > 0 ? (sorted[sorted.length - 1] ?? null) : null;
  const graded = counts.passed + counts.failed;
  const passRate = graded === 0 ? null : counts.passed / graded;
  const finishedAt = options.finishedAt ?? meta.finishedAt ?? lastFinishedAt ?? null;
  const repeats = byRow.summary();
  const durationMs = finishedAt === null ? null : Date.parse(finishedAt) - Date.parse(meta.startedAt);
  const cause = causes.main();
  return {
    runId: meta.runId,
    workflowId: meta.workflowId,
    kind: meta.kind,
    dataset: meta.dataset,
    datasetSha256: meta.datasetSha256,
    siteId: meta.siteId,
    model: meta.model ?? null,
    startedAt: meta.startedAt,
    finishedAt,
    durationMs: Number.isFinite(durationMs) ? durationMs : null,
    total,
    missing: meta.rowCount === undefined ? 0 : Math.max(0, meta.rowCount - total),
    ...counts,
    graded,
    passRate,
    feedback,
    sessions: options.sessions
      ? { closeFailed: null, ...options.sessions }
      : { opened: sessionIds.size, closed: options.sessionsClosed ?? null, closeFailed: options.sessionsCloseFailed ?? null },
    latencyMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max, ...(unobserved > 0 && { unobservedRows: unobserved }) },
    distributions: {
      latencyMs: histogram(sorted, 0, niceCeil(max ?? 0), LATENCY_BINS),
      confidence: histogram(confidences, 0, 100, CONFIDENCE_BINS),
    },
    byTag,
    errorsByType,
    ...(cause && { cause }),
    cancelled: options.cancelled ?? false,
    ...(diff && { baseline: diff.result(passRate, confirmed) }),
    ...(repeats && { repeats }),
    ...(judge.calls + judge.cached > 0 && { judge }),
    ...(escalated.rows > 0 && { escalated }),
    ...(reviewed > 0 && { reviewed }),
    ...reasked.summary(),
    ...(meta.provenance && { provenance: meta.provenance }),
  };
}

/** Rows listed by id in `reasked`; the counts cover all of them. */
const REASKED_LISTED = 50;

/** Rows re-asked after the service failed them (`RowResult.reasked`), for the summary's `reasked`. */
class ReaskTally {
  private rows = 0;
  private requests = 0;
  private answered = 0;
  private readonly rowIds: string[] = [];

  add(row: RowResult): void {
    if (!row.reasked?.length) return;
    this.rows++;
    this.requests += row.reasked.length;
    if (row.outcome !== Outcome.error && row.outcome !== Outcome.skipped && row.outcome !== Outcome.timedOut) this.answered++;
    if (this.rowIds.length < REASKED_LISTED) this.rowIds.push(row.id);
  }

  summary(): Pick<RunSummary, 'reasked'> {
    return this.rows === 0 ? {} : { reasked: { rows: this.rows, requests: this.requests, answered: this.answered, rowIds: this.rowIds.sort() } };
  }
}

/** A row sent to the judge because the graders were uncertain: settled (its `escalated` result), or not (`judgeError`). */
function addEscalated(into: NonNullable<RunSummary['escalated']>, row: RowResult): void {
  const judged = row.assertions?.find((a) => a.escalated);
  if (judged) {
    into.rows++;
    if (row.outcome === Outcome.passed) into.passed++;
    if (row.outcome === Outcome.failed) into.failed++;
    addJudged(into, judged.judge);
  } else if (row.decision?.judgeError !== undefined) {
    into.rows++;
    into.unsettled++;
  }
}

function addJudged(into: NonNullable<RunSummary['judge']>, judged: AssertionResult['judge']): void {
  if (!judged) return;
  if (judged.cached) into.cached++;
  else {
    into.calls++;
    into.tokens += judged.tokens;
  }
}
