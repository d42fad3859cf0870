import type { ResultsStore } from '../src/store/store';
import type { RowResult } from '../src/domain/results';
import type { ActivityDeps } from './deps';
import type { RecordLabelFeedbackInput } from './types';

/** The row of `rowId` as stored last (one pass over the run). */
export async function readRow(store: ResultsStore, runId: string, rowId: string): Promise<RowResult | undefined> {
  for await (const row of store.read(runId)) if (row.id === rowId) return row;
  return undefined;
}

export function labelFeedbackActivities(deps: ActivityDeps) {
  return {
    /**
     * Records what became of a labelled row's feedback on its row (read again here, so the label the review page
     * wrote meanwhile is kept). Idempotent: the same state written again.
     */
    async recordLabelFeedback({ runId, rowId, feedback, feedbackError }: RecordLabelFeedbackInput): Promise<void> {
      const row = await readRow(deps.store, runId, rowId);
      if (!row) return;
      const { feedbackError: _old, ...rest } = row;
      await deps.store.append(runId, [{ ...rest, feedback, ...(feedbackError !== undefined && { feedbackError }) }]);
    },
  };
}
