import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps';
import { asFailure } from './failures';
import type { RecordRowsInput, SendFeedbackInput } from './types';

export function finishActivities(deps: ActivityDeps) {
  return {
    /**
     * One feedback call: what the server dispatches per site on the feedback queue is then exactly what the API
     * counts. 429, 5xx and network errors fail the attempt for Temporal's retry policy to try again (a 429's
     * Retry-After wins); feedback is idempotent in the API, so a retry after a lost response changes nothing.
     */
    async sendFeedback({ siteId, sessionId, requestId, feedback }: SendFeedbackInput): Promise<void> {
      const signal = Context.current().cancellationSignal;
      await asFailure(() => deps.limiter.run(`POST /m2m/sites/${siteId}/chat/feedback`, () =>
        deps.api.feedback.submit(siteId, { session_id: sessionId, request_id: requestId, feedback }, { signal }), signal));
    },

    /**
     * Records finished rows with their metadata columns (read back from the plan: the workflow never had them);
     * the store is idempotent by row id, so a retried batch is harmless.
     */
    async recordRows({ runId, page, results }: RecordRowsInput): Promise<void> {
      await deps.store.append(runId, await deps.planMetadata.attach(runId, page, results));
    },
  };
}
