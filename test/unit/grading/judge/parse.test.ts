import { describe, expect, it } from 'vitest';
import { JudgeOutputError } from '../../../../src/grading/judge/errors';
import { MAX_REASON_LENGTH, parseJudgeReply } from '../../../../src/grading/judge/parse';

describe('parseJudgeReply', () => {
  it.each([
    ['{"verdict":"pass","reason":"States the price."}', 'pass', 'States the price.'],
    ['  {"verdict": "FAIL", "reason": "  Wrong\\n price. "}  ', 'fail', 'Wrong price.'],
    ['```json\n{"verdict":"pass","reason":"ok"}\n```', 'pass', 'ok'],
    ['```\n{"verdict":"fail","reason":"no"}\n```', 'fail', 'no'],
    ['{"reason":"extra keys are fine","verdict":"pass","score":1}', 'pass', 'extra keys are fine'],
  ])('reads %j', (content, verdict, reason) => {
    expect(parseJudgeReply(content)).toEqual({ verdict, reason });
  });

  it.each([
    ['', /no content/],
    [null, /no content/],
    ['The answer is correct.', /not JSON/],
    ['Sure! {"verdict":"pass","reason":"ok"}', /not JSON/],
    ['["pass","ok"]', /not a JSON object/],
    ['{"verdict":"yes","reason":"ok"}', /no verdict "pass" or "fail" \(got "yes"\)/],
    ['{"verdict":true,"reason":"ok"}', /got true/],
    ['{"reason":"ok"}', /got nothing/],
    ['{"verdict":"pass"}', /no reason/],
    ['{"verdict":"pass","reason":"   "}', /no reason/],
    ['{"verdict":"pass","reason":"ok"', /not JSON/],
  ])('rejects %j with a JudgeOutputError, never a guess', (content, message) => {
    let error: unknown;
    try {
      parseJudgeReply(content);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JudgeOutputError);
    expect((error as JudgeOutputError).name).toBe('JudgeOutputError');
    expect((error as JudgeOutputError).retryable).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('cuts an overlong reason instead of rejecting it', () => {
    const { reason } = parseJudgeReply(JSON.stringify({ verdict: 'pass', reason: 'x'.repeat(2000) }));
    expect(reason).toHaveLength(MAX_REASON_LENGTH);
    expect(reason.endsWith('…')).toBe(true);
  });
});
