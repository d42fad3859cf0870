/**
 * When a judgement stops being retried, and how long a 429 may hold it: one rule for both retry loops, the judge
 * activity's (a run) and `pacedJudge`'s (`sitechat grade`). Pure: no Node APIs.
 */
import { JUDGE_OUTPUT_ATTEMPTS, JudgeOutputError, JudgeRateLimitError, type JudgeError } from './errors';

/** The judge's own bounds on one judgement, from its settings. */
export interface JudgeRetryLimits {
  /** SITECHAT_JUDGE_MAX_ATTEMPTS: attempts per judgement, whatever the retryable failure. */
  maxAttempts: number;
  /** SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: the longest wait a 429's `Retry-After` gets; 0 ignores `Retry-After`. */
  maxRetryAfterMs: number;
}

/**
 * Whether the judgement ends with `err` after `attempt` attempts: the error is not retryable, the attempts are used
 * up, or the model's reply failed to parse for the {@link JUDGE_OUTPUT_ATTEMPTS}th time.
 */
export function isFinalAttempt(err: JudgeError, attempt: number, limits: Pick<JudgeRetryLimits, 'maxAttempts'>): boolean {
  if (!err.retryable || attempt >= limits.maxAttempts) return true;
  return err instanceof JudgeOutputError && attempt >= JUDGE_OUTPUT_ATTEMPTS;
}

/**
 * The wait a 429 asks for, at most `maxRetryAfterMs`; undefined when it asks for none (or the cap is 0), and the
 * retry backs off as for a 5xx. A provider that asks for an hour is retried after the cap: its attempts stay counted,
 * so it still ends within SITECHAT_JUDGE_MAX_ATTEMPTS.
 */
export function cappedRetryAfterMs(err: JudgeError, limits: Pick<JudgeRetryLimits, 'maxRetryAfterMs'>): number | undefined {
  if (!(err instanceof JudgeRateLimitError) || !err.retryAfterMs || limits.maxRetryAfterMs <= 0) return undefined;
  return Math.min(err.retryAfterMs, limits.maxRetryAfterMs);
}
