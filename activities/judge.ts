import { ApplicationFailure, Context } from '@temporalio/activity';
import { JudgeError } from '../src/grading/judge/errors';
import { cappedRetryAfterMs, isFinalAttempt, type JudgeRetryLimits } from '../src/grading/judge/retry';
import type { JudgeOutcome, JudgeRequest } from '../src/grading/judge/types';
import type { ActivityDeps } from './deps';

/**
 * The LLM judge as activities. `lookupJudgeCache` runs on the main queue and makes no call; `judge` runs on the judge
 * queue, one model call per attempt, so the queue's rate limit paces exactly what the provider counts.
 */
export function judgeActivities(deps: ActivityDeps) {
  return {
    /** Cached verdicts for `requests` (null where there is none), so cache hits never take a slot on the judge queue. */
    async lookupJudgeCache({ requests }: { requests: JudgeRequest[] }): Promise<(JudgeOutcome | null)[]> {
      const judge = deps.judge;
      if (!judge) return requests.map(() => null);
      return Promise.all(requests.map(async (request) => {
        const hit = await deps.judgeCache.get(judge.model, request);
        return hit ? { ...hit, model: judge.model, cached: true } : null;
      }));
    },

    /**
     * Escalation of an uncertain row: whether this worker has a judge, and its cached verdict (null when none). No
     * judge means the row stays uncertain; a miss goes to `judge` on the judge queue.
     */
    async lookupEscalation({ request }: { request: JudgeRequest }): Promise<{ judge: boolean; cached: JudgeOutcome | null }> {
      const judge = deps.judge;
      if (!judge) return { judge: false, cached: null };
      const hit = await deps.judgeCache.get(judge.model, request);
      return { judge: true, cached: hit ? { ...hit, model: judge.model, cached: true } : null };
    },

    /** One judgement: a cache hit (filled meanwhile) or one call, whose verdict is then cached. */
    async judge(request: JudgeRequest): Promise<JudgeOutcome> {
      const judge = deps.judge;
      if (!judge) {
        throw ApplicationFailure.nonRetryable(
          'no judge configured on the worker: set SITECHAT_JUDGE_BASE_URL, SITECHAT_JUDGE_API_KEY and SITECHAT_JUDGE_MODEL',
          'JudgeConfigError',
        );
      }
      const hit = await deps.judgeCache.get(judge.model, request);
      if (hit) return { ...hit, model: judge.model, cached: true };
      const ctx = Context.current();
      let verdict;
      try {
        verdict = await deps.judgeLimiter.run(() => judge.judge(request, { signal: ctx.cancellationSignal }), ctx.cancellationSignal);
      } catch (err) {
        // A cancelled activity ends with what its cancellation threw; every other failure counts against the judge's limits.
        if (ctx.cancellationSignal.aborted) throw err;
        const limits = { maxAttempts: deps.judgeMaxAttempts, maxRetryAfterMs: deps.judgeMaxRetryAfterMs };
        throw toJudgeFailure(err, ctx.info.attempt, limits, deps.scrub);
      }
      await deps.judgeCache.set(judge.model, request, verdict);
      return { ...verdict, model: judge.model, cached: false };
    },
  };
}

/**
 * A judge failure as a Temporal failure typed by its class. The worker decides when to stop (see `isFinalAttempt`):
 * after SITECHAT_JUDGE_MAX_ATTEMPTS for every retryable failure, sooner for unparseable replies; the activity
 * policy's own attempts are only a backstop. Something a judge should not throw (anything but a `JudgeError`) is
 * retried within the same limit under its own name, rather than by the policy's 20 attempts; its text is scrubbed
 * (a `JudgeError`'s already is).
 */
export function toJudgeFailure(err: unknown, attempt: number, limits: JudgeRetryLimits, scrub: (text: string) => string = (t) => t): ApplicationFailure {
  const judgeErr = err instanceof JudgeError ? err : undefined;
  const retryable = judgeErr ? judgeErr.retryable : true;
  const nonRetryable = judgeErr ? isFinalAttempt(judgeErr, attempt, limits) : attempt >= limits.maxAttempts;
  const tries = nonRetryable && retryable ? ` (gave up after ${attempt} attempt${attempt === 1 ? '' : 's'})` : '';
  const asked = judgeErr && !nonRetryable ? cappedRetryAfterMs(judgeErr, limits) : undefined;
  return ApplicationFailure.create({
    message: `${judgeErr ? judgeErr.message : scrub(err instanceof Error ? err.message : String(err))}${tries}`,
    type: err instanceof Error ? err.name : 'Error',
    nonRetryable,
    details: [{ status: judgeErr?.status }],
    // At least the policy's initial interval, unless the cap is shorter.
    nextRetryDelay: asked === undefined ? undefined : Math.min(limits.maxRetryAfterMs, Math.max(1000, asked)),
  });
}
