import type { ActivityDeps } from './deps';
import type { RecordLabelFeedbackInput } from './types';

export function labelFeedbackActivities(deps: ActivityDeps) {
  return {
    /**
     * Records what became of a labelled row's feedback on its row (read again here, so the label the review page
     * wrote meanwhile is kept). Idempotent: the same state written again.
     */
    async recordLabelFeedback({ runId, rowId, feedback, feedbackError }: RecordLabelFeedbackInput): Promise<void> {
      const row = await deps.store.getRow(runId, rowId);
      if (!row) return;
      const { feedbackError: _old, ...rest } = row;
      await deps.store.append(runId, [{ ...rest, feedback, ...(feedbackError !== undefined && { feedbackError }) }]);
    },
  };
}
