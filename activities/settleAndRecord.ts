import { Context } from '@temporalio/activity';
import type { ActivityDeps } from './deps';
import { BadRequestError, SiteChatError } from '../src/api/errors';
import { feedbackRefusalCause } from '../src/api/ids';
import { metrics } from '../src/observability/metrics/registry';
import { shortError, toFailure } from './failures';
import type { CallOutcome, SettleInput, SettleResult } from './types';

/** `settle`: a feedback and a session's close on the API, outside a run's batches (a review's feedback, a session closed on its own). */
export function settleAndRecordActivities(deps: ActivityDeps) {
  return {
    /**
     * What follows an answer on the API: its feedback, and — after a conversation's last turn — closing its session.
     * At most one call per path per attempt, so what the server dispatches per site on this queue is what the API
     * counts on each path. A refusal (4xx) is returned, not thrown: it is final. 429, 5xx and network errors fail
     * the attempt for Temporal's retry policy (a 429's Retry-After wins) — except a close after feedback that got
     * through: that comes back as `closeAgain`, and the workflow closes in an activity of its own, so the retry never
     * sends the feedback twice.
     */
    async settle({ siteId, feedback, closeSessionId }: SettleInput): Promise<SettleResult> {
      const signal = Context.current().cancellationSignal;
      const result: SettleResult = {};
      if (feedback) {
        const body = { session_id: feedback.sessionId, request_id: feedback.requestId, feedback: feedback.value };
        result.feedback = await finalOrThrow('feedback', siteId, () => deps.limiter.run(`POST /m2m/sites/${siteId}/chat/feedback`, () =>
          deps.api.feedback.submit(siteId, body, { signal }), signal), feedbackRefusal(body));
      }
      if (closeSessionId) {
        try {
          result.close = await finalOrThrow('close', siteId, () => deps.limiter.run(`POST /m2m/sites/${siteId}/chat/session/close`, () =>
            deps.api.chat.closeSession(siteId, closeSessionId, { signal }), signal));
        } catch (err) {
          if (!result.feedback) throw err;
          result.closeAgain = true;
        }
      }
      return result;
    },
  };
}

/**
 * A feedback call's 400 in words: the API's one answer for several causes, followed by the likely one, so a report
 * does not just say "feedback must be 'good' or 'bad'" of a row whose feedback was `good`.
 */
export function feedbackRefusal(body: Parameters<typeof feedbackRefusalCause>[0]): (err: SiteChatError) => string | undefined {
  return (err) => (err instanceof BadRequestError ? feedbackRefusalCause(body) : undefined);
}

/**
 * A call's final outcome; a retryable error is thrown (as a Temporal failure naming the call) for the retry policy.
 * `explain` may add why a refusal (a final error) most likely happened.
 */
export async function finalOrThrow(call: 'feedback' | 'close', site: string, fn: () => Promise<unknown>, explain?: (err: SiteChatError) => string | undefined): Promise<CallOutcome> {
  const counter = call === 'feedback' ? metrics().feedback : metrics().sessionCloses;
  try {
    await fn();
    counter.inc({ site, result: 'ok' });
    return { ok: true };
  } catch (err) {
    const final = err instanceof SiteChatError && !err.retryable;
    counter.inc({ site, result: final ? 'refused' : 'retried' });
    if (final) {
      const why = explain?.(err);
      return { ok: false, error: why ? `${shortError(err)} (${why})` : shortError(err) };
    }
    const failure = toFailure(err);
    if (failure instanceof Error) failure.message = `${call}: ${failure.message}`;
    throw failure;
  }
}
