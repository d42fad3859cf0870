import { describe, expect, it } from 'vitest';
import { JudgeConnectionError, JudgeOutputError, JudgeRateLimitError, JudgeRequestError, JudgeResponseError, JudgeServerError } from '../../../../src/grading/judge/errors';
import { pacedJudge } from '../../../../src/grading/judge/paced';
import type { Judge, JudgeRequest, JudgeVerdict } from '../../../../src/grading/judge/types';

const request: JudgeRequest = { kind: 'rubric', question: 'q', answer: 'a', rubric: 'r' };
const ok: JudgeVerdict = { verdict: 'pass', reason: 'ok', tokens: 3 };

/** A fake clock: sleeping advances it, and every call records when it started. */
function harness(script: (n: number) => JudgeVerdict | Error) {
  let now = 0;
  const starts: number[] = [];
  const sleeps: number[] = [];
  const inner: Judge = {
    model: 'm',
    judge: () => {
      starts.push(now);
      const r = script(starts.length);
      return r instanceof Error ? Promise.reject(r) : Promise.resolve(r);
    },
  };
  const sleep = (ms: number): Promise<void> => {
    sleeps.push(ms);
    now += ms;
    return Promise.resolve();
  };
  return { inner, starts, sleeps, now: () => now, sleep };
}

describe('pacedJudge', () => {
  it('spaces calls 60 000 / rpm ms apart', async () => {
    const h = harness(() => ok);
    const judge = pacedJudge(h.inner, { rpm: 120, sleep: h.sleep, now: h.now });
    for (let i = 0; i < 4; i++) await judge.judge(request);
    expect(h.starts).toEqual([0, 500, 1000, 1500]);
    expect(judge.model).toBe('m');
  });

  it('retries 429/5xx with exponential backoff (a longer Retry-After wins), each retry paced too', async () => {
    const h = harness((n) => (n === 1 ? new JudgeServerError('500', 500) : n === 2 ? new JudgeRateLimitError('429', 5000) : n === 3 ? new JudgeServerError('502', 502) : ok));
    const judge = pacedJudge(h.inner, { rpm: 0, sleep: h.sleep, now: h.now, initialBackoffMs: 1000 });
    expect(await judge.judge(request)).toEqual(ok);
    expect(h.sleeps).toEqual([1000, 5000, 4000]);
    expect(h.starts).toEqual([0, 1000, 6000, 10000]);
  });

  it('gives up after maxAttempts, and at once on non-retryable errors', async () => {
    const always = harness(() => new JudgeServerError('500', 500));
    await expect(pacedJudge(always.inner, { rpm: 0, maxAttempts: 3, sleep: always.sleep }).judge(request)).rejects.toBeInstanceOf(JudgeServerError);
    expect(always.starts).toHaveLength(3);

    const bad = harness(() => new JudgeRequestError('401', 401));
    await expect(pacedJudge(bad.inner, { rpm: 0, sleep: bad.sleep }).judge(request)).rejects.toBeInstanceOf(JudgeRequestError);
    expect(bad.starts).toHaveLength(1);
  });

  it('waits a Retry-After of an hour only SITECHAT_JUDGE_MAX_RETRY_AFTER_MS, and still gives up after maxAttempts', async () => {
    const h = harness(() => new JudgeRateLimitError('429', 3_600_000));
    await expect(pacedJudge(h.inner, { rpm: 0, maxAttempts: 3, maxRetryAfterMs: 60_000, sleep: h.sleep }).judge(request)).rejects.toBeInstanceOf(JudgeRateLimitError);
    expect(h.starts).toHaveLength(3);
    expect(h.sleeps).toEqual([60_000, 60_000]);

    const byDefault = harness(() => new JudgeRateLimitError('429', 3_600_000));
    await expect(pacedJudge(byDefault.inner, { rpm: 0, maxAttempts: 2, sleep: byDefault.sleep }).judge(request)).rejects.toBeInstanceOf(JudgeRateLimitError);
    expect(byDefault.sleeps).toEqual([60_000]);

    // 0 ignores Retry-After: the backoff alone.
    const ignored = harness(() => new JudgeRateLimitError('429', 3_600_000));
    await expect(pacedJudge(ignored.inner, { rpm: 0, maxAttempts: 2, maxRetryAfterMs: 0, sleep: ignored.sleep }).judge(request)).rejects.toBeInstanceOf(JudgeRateLimitError);
    expect(ignored.sleeps).toEqual([1000]);
  });

  it.each([
    ['a reply that is not a chat completion', new JudgeResponseError('answered 200 with an empty body', 200)],
    ['a time-out or a broken connection', new JudgeConnectionError('did not answer within 1500 ms')],
  ])('retries %s within maxAttempts', async (_, err) => {
    const h = harness(() => err);
    await expect(pacedJudge(h.inner, { rpm: 0, maxAttempts: 4, sleep: h.sleep }).judge(request)).rejects.toBe(err);
    expect(h.starts).toHaveLength(4);
  });

  it('tries an unparseable reply twice, not more', async () => {
    const h = harness(() => new JudgeOutputError('not JSON', 'hello'));
    await expect(pacedJudge(h.inner, { rpm: 0, maxAttempts: 6, sleep: h.sleep }).judge(request)).rejects.toBeInstanceOf(JudgeOutputError);
    expect(h.starts).toHaveLength(2);
  });
});
