import { ApplicationFailure, Context } from '@temporalio/activity';
import { JUDGE_OUTPUT_ATTEMPTS, JudgeError, JudgeOutputError, JudgeRateLimitError } from '../src/grading/judge/errors';
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
        throw toJudgeFailure(err, ctx.info.attempt, deps.judgeMaxAttempts);
      }
      await deps.judgeCache.set(judge.model, request, verdict);
      return { ...verdict, model: judge.model, cached: false };
    },
  };
}

/**
 * A judge error as a Temporal failure typed by its class. The worker decides when to stop: after `maxAttempts`
 * (SITECHAT_JUDGE_MAX_ATTEMPTS) for 429/5xx/network errors, after {@link JUDGE_OUTPUT_ATTEMPTS} for unparseable replies.
 */
export function toJudgeFailure(err: unknown, attempt: number, maxAttempts: number): unknown {
  if (!(err instanceof JudgeError)) return err;
  const lastOutputTry = err instanceof JudgeOutputError && attempt >= JUDGE_OUTPUT_ATTEMPTS;
  const nonRetryable = !err.retryable || attempt >= maxAttempts || lastOutputTry;
  const tries = nonRetryable && err.retryable ? ` (gave up after ${attempt} attempt${attempt === 1 ? '' : 's'})` : '';
  return ApplicationFailure.create({
    message: `${err.message}${tries}`,
    type: err.name,
    nonRetryable,
    details: [{ status: err.status }],
    nextRetryDelay: err instanceof JudgeRateLimitError && err.retryAfterMs ? Math.max(1000, err.retryAfterMs) : undefined,
  });
}
