/**
 * What a save cut short (the review server killed between its steps) is finished when the review starts again:
 * a label this review wrote whose row was not yet settled by it is applied, and a labelled row whose feedback was
 * never recorded gets its workflow started (refused as a duplicate when it had started: nothing is sent twice).
 */
import type { RowResult, RunMeta } from '../domain/results';
import { DecidedBy } from '../domain/results';
import { rowLabelKey } from '../labels/rowSubject';
import { feedbackNotDue, startLabelFeedback } from './feedback';
import { refreshRun } from './refresh';
import { reviewSource, settledByLabel, type ReviewDeps } from './save';

/** Keys looked up per `getLabels` call. */
const BATCH = 500;

export interface Reconciled {
  /** Rows settled from labels their save had written. */
  applied: number;
  /** Feedback workflows started (or found started) for labelled rows without a recorded feedback state. */
  feedbackStarted: number;
}

export async function reconcileRun(deps: ReviewDeps, meta: RunMeta): Promise<Reconciled> {
  const result: Reconciled = { applied: 0, feedbackStarted: 0 };
  const source = reviewSource(meta.runId);
  let batch: { key: string; row: RowResult }[] = [];
  const flush = async (): Promise<void> => {
    const labels = await deps.store.getLabels(batch.map((b) => b.key));
    for (const { key, row } of batch) {
      const label = labels.get(key);
      const settledHere = row.decision?.by === DecidedBy.label && row.decision.verdict === label?.verdict;
      let current = row;
      if (label && label.source === source && !settledHere) {
        current = settledByLabel(row, label);
        await deps.store.append(meta.runId, [current]);
        result.applied++;
      }
      if (current.decision?.by === DecidedBy.label && !feedbackNotDue(meta, current)) {
        await startLabelFeedback(deps.client, meta, current);
        result.feedbackStarted++;
      }
    }
    batch = [];
  };
  for await (const row of deps.store.read(meta.runId)) {
    if (row.answer === undefined) continue;
    batch.push({ key: rowLabelKey(meta.siteId, row), row });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  if (result.applied > 0) await refreshRun(deps.store, meta.runId, { runsDir: deps.runsDir });
  return result;
}
