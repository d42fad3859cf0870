import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { toJudgeFailure } from '../../../activities/judge';
import {
  JudgeConnectionError,
  JudgeOutputError,
  JudgeRateLimitError,
  JudgeRequestError,
  JudgeResponseError,
  JudgeServerError,
} from '../../../src/grading/judge/errors';

const limits = (maxAttempts: number, maxRetryAfterMs = 60_000) => ({ maxAttempts, maxRetryAfterMs });

describe('judge activity failures (the worker ends the retries, not the activity policy)', () => {
  it('retries 429/5xx until the worker\'s max attempts, unparseable replies twice, bad requests never', () => {
    const server = new JudgeServerError('500 from the judge', 500);
    expect(toJudgeFailure(server, 1, limits(3)).nonRetryable).toBe(false);
    const last = toJudgeFailure(server, 3, limits(3));
    expect(last).toBeInstanceOf(ApplicationFailure);
    expect(last).toMatchObject({ type: 'JudgeServerError', nonRetryable: true, message: '500 from the judge (gave up after 3 attempts)' });
    expect(toJudgeFailure(new JudgeOutputError('not JSON', 'x'), 1, limits(6)).nonRetryable).toBe(false);
    expect(toJudgeFailure(new JudgeOutputError('not JSON', 'x'), 2, limits(6)).nonRetryable).toBe(true);
    expect(toJudgeFailure(new JudgeRequestError('401', 401), 1, limits(6))).toMatchObject({ type: 'JudgeRequestError', nonRetryable: true, message: '401' });
  });

  it.each([
    ['a reply that is not a chat completion', new JudgeResponseError('answered 200 with an empty body', 200)],
    ['a time-out or a broken connection', new JudgeConnectionError('did not answer within 1500 ms')],
  ])('ends %s after SITECHAT_JUDGE_MAX_ATTEMPTS, under its class', (_, err) => {
    expect(toJudgeFailure(err, 1, limits(2))).toMatchObject({ type: err.name, nonRetryable: false });
    expect(toJudgeFailure(err, 2, limits(2))).toMatchObject({ type: err.name, nonRetryable: true, message: `${err.message} (gave up after 2 attempts)` });
  });

  it('bounds anything else a judge throws by the same limit, under its own name, with keys scrubbed', () => {
    const scrub = (text: string): string => text.replaceAll('sk-SECRET', '[REDACTED]');
    const err = new TypeError("Cannot read properties of undefined (reading 'choices') sk-SECRET");
    const first = toJudgeFailure(err, 1, limits(3), scrub);
    expect(first).toMatchObject({ type: 'TypeError', nonRetryable: false });
    expect(first.message).not.toContain('sk-SECRET');
    expect(toJudgeFailure(err, 3, limits(3), scrub)).toMatchObject({ type: 'TypeError', nonRetryable: true, message: expect.stringMatching(/\(gave up after 3 attempts\)$/) });
  });

  it('waits a 429\'s Retry-After up to SITECHAT_JUDGE_MAX_RETRY_AFTER_MS, at least 1 s, and not at all once it gives up', () => {
    const hour = new JudgeRateLimitError('429 (Retry-After: 3600000 ms)', 3_600_000);
    expect(toJudgeFailure(hour, 1, limits(6, 60_000))).toMatchObject({ nonRetryable: false, nextRetryDelay: 60_000 });
    expect(toJudgeFailure(new JudgeRateLimitError('429', 5000), 1, limits(6, 60_000)).nextRetryDelay).toBe(5000);
    expect(toJudgeFailure(new JudgeRateLimitError('429', 10), 1, limits(6, 60_000)).nextRetryDelay).toBe(1000);
    expect(toJudgeFailure(hour, 1, limits(6, 500)).nextRetryDelay).toBe(500);
    // 0 ignores Retry-After: the policy's backoff applies.
    expect(toJudgeFailure(hour, 1, limits(6, 0)).nextRetryDelay).toBeUndefined();
    expect(toJudgeFailure(hour, 6, limits(6, 60_000))).toMatchObject({ nonRetryable: true, nextRetryDelay: undefined });
  });
});
