import { Context } from '@temporalio/activity';
import type { RowResult } from '../src/reports/types';
import type { ActivityDeps } from './deps';
import { shortError } from './failures';
import { retryInline } from './retryInline';
import type { FeedbackCounts, FinishRowsInput } from './types';

/**
 * Sends the feedback due for a batch of finished rows, then records the rows. Feedback is idempotent in the API
 * (the same value again changes nothing), and the store is idempotent by row id, so a retried batch is harmless.
 */
export function finishActivities(deps: ActivityDeps) {
  return {
    async finishRows({ runId, siteId, items }: FinishRowsInput): Promise<FeedbackCounts> {
      const ctx = Context.current();
      const counts: FeedbackCounts = { good: 0, bad: 0, failed: 0 };
      const results: RowResult[] = [];
      for (const { result, feedback } of items) {
        if (!feedback || !result.requestId || !result.sessionId) {
          results.push(result);
          continue;
        }
        const body = { session_id: result.sessionId, request_id: result.requestId, feedback };
        try {
          await retryInline(() =>
            deps.limiter.run(`POST /m2m/sites/${siteId}/chat/feedback`, () =>
              deps.api.feedback.submit(siteId, body, { signal: ctx.cancellationSignal }), ctx.cancellationSignal),
          );
          counts[feedback] += 1;
          results.push({ ...result, feedback });
        } catch (err) {
          counts.failed += 1;
          results.push({ ...result, feedback: 'failed', feedbackError: shortError(err) });
        }
        ctx.heartbeat();
      }
      await deps.store.append(runId, results);
      return counts;
    },
  };
}
