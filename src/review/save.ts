/**
 * Saving a label from the review page, in an order that a crash at any point leaves repairable (`reconcileRun`):
 * the label first, then the run's row settled by it, then its feedback workflow, then the reports.
 */
import type { Client } from '@temporalio/client';
import { forbiddenCharacter } from '../datasets/encoding';
import { labelDecision, labelledResult } from '../labels/apply';
import { labelForRow } from '../labels/rowSubject';
import { LabelVerdict, type LabelMatch } from '../domain/label';
import type { ResultsStore } from '../store/store';
import { DecidedBy, type GradeDecision, type GraderDecision, type RowResult, type RunMeta, type RunSummary } from '../domain/results';
import { ReviewRequestError } from './errors';
import { startLabelFeedback } from './feedback';
import { refreshRun } from './refresh';
import type { FeedbackStart, SaveRequest } from './types';

export interface ReviewDeps {
  store: ResultsStore;
  client: Client;
  runsDir: string;
  /** Who labels (`--by`, else the OS user name). */
  by?: string;
  now?: () => Date;
}

/** Where labels from this review of a run say they came from. */
export function reviewSource(runId: string): string {
  return `review ${runId}`;
}

const verdicts = new Set<string>(Object.values(LabelVerdict));

/**
 * Why a note cannot be saved, or undefined. A note goes into label files (`sitechat labels export`), so it is held to
 * the rules of their import: a control character (NUL, an ANSI escape…) would make the export one that does not
 * import again. The page checks the same pattern before it sends (pageAssets.ts).
 */
export function noteProblem(note: string): string | undefined {
  const bad = forbiddenCharacter(note);
  return bad && `the note holds ${bad.name} at character ${bad.character}: a note may hold text, tabs and line breaks, as a label file may; nothing was saved`;
}

/**
 * The row as the label settles it: its outcome, and the label's decision (the same as a run writes), which keeps the
 * outcome the row had before and what its graders (or the judge) had decided, for the reports to show beside it.
 */
export function settledByLabel(row: RowResult, label: LabelMatch): RowResult {
  const before = row.decision;
  const relabelled = before?.by === DecidedBy.label;
  const was = relabelled ? (before.was ?? row.outcome) : row.outcome;
  const graders = relabelled ? before.graders : before && graderDecisionOf(before);
  return { ...labelledResult(row, label), decision: { ...labelDecision(label), was, ...(graders && { graders }) } };
}

function graderDecisionOf({ verdict, by, reason, judgeError }: GradeDecision): GraderDecision {
  return { verdict, by, reason, ...(judgeError !== undefined && { judgeError }) };
}

export interface Saved {
  row: RowResult;
  feedback: FeedbackStart;
  /** The run's summary as recomputed; undefined when the caller deferred that to a later save (`refresh: false`). */
  summary?: RunSummary;
}

/**
 * @param refresh recompute the verdict and rewrite the reports now. A caller with more saves of the run waiting passes
 *   false and lets the last of them do it once (on a large run that rewrite is most of a save's time).
 */
export async function saveLabel(deps: ReviewDeps, meta: RunMeta, request: SaveRequest, refresh = true): Promise<Saved> {
  if (!verdicts.has(request.verdict)) throw new ReviewRequestError(`verdict must be one of ${[...verdicts].join(', ')}`);
  const note = request.note?.trim() || undefined;
  const problem = note === undefined ? undefined : noteProblem(note);
  if (problem) throw new ReviewRequestError(problem);
  const row = await deps.store.getRow(meta.runId, request.rowId);
  if (!row) throw new ReviewRequestError(`run ${meta.runId} has no row ${request.rowId}`, 404);
  if (row.answer === undefined) throw new ReviewRequestError(`row ${request.rowId} has no answer to label`);
  const label = labelForRow(meta.siteId, row, {
    verdict: request.verdict, note, by: deps.by, at: (deps.now?.() ?? new Date()).toISOString(), source: reviewSource(meta.runId),
  });
  await deps.store.putLabels([label]);
  const settled = settledByLabel(row, label);
  await deps.store.append(meta.runId, [settled]);
  const feedback = await startLabelFeedback(deps.client, meta, settled);
  const summary = refresh ? await refreshRun(deps.store, meta.runId, { runsDir: deps.runsDir }) : undefined;
  return { row: settled, feedback, summary };
}
