import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/api/secret';
import type { JudgeSettings } from '../../src/grading/judge/settings';
import type { RunResult } from '../../src/domain/run';
import { HostileMode, startHostileJudge, type HostileJudge, type HostileOptions } from '../helpers/hostileJudge';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';

const JUDGE_KEY = 'sk-judge-hostile-SECRET-0e7b';
/** One llm-rubric judgement per row (the `rubric` column). */
const HEADER = 'id,question,rubric';
const ROWS = [
  'h1,How much does the Personal plan cost?,mentions $9.99 per month',
  'h2,How much storage do I get for free?,mentions 5 GB',
  'h3,Can I get a refund for my annual subscription?,mentions 14 days',
  'h4,Which payment methods do you accept?,mentions PayPal',
];
/** Small bounds so that every mode ends in seconds. */
const LIMITS = { timeoutMs: 1500, maxAttempts: 2, maxRetryAfterMs: 1000 };

describe('a hostile judge never stalls a run (real Temporal, the simulator, a hostile judge over HTTP)', () => {
  let stack: Stack;
  let judge: HostileJudge;

  beforeAll(async () => {
    judge = await startHostileJudge();
    stack = await startStack(__filename);
    const settings: JudgeSettings = { baseUrl: judge.baseUrl, apiKey: new Secret(JUDGE_KEY), model: 'hostile', rpm: 0, temperature: 0, jsonMode: true, ...LIMITS };
    await stack.startWorkers({ judge: settings });
  });
  afterAll(async () => {
    await stack?.close();
    await judge?.close();
  });

  it.each<[HostileMode, string, HostileOptions, RegExp]>([
    [HostileMode.empty, 'JudgeResponseError', {}, /answered 200 with an empty body/],
    [HostileMode.trickle, 'JudgeConnectionError', { trickleEveryMs: 1000 }, /did not answer within 1500 ms/],
    [HostileMode.rateLimited, 'JudgeRateLimitError', { retryAfterSeconds: 3600 }, /^grading failed: 429 from the judge .*\(Retry-After: 3600000 ms\)/],
    [HostileMode.notJson, 'JudgeResponseError', {}, /answered 200 with a body that is not JSON/],
    [HostileMode.wrongShape, 'JudgeResponseError', {}, /first choice has no `message`/],
    [HostileMode.reset, 'JudgeConnectionError', {}, /broke before the reply was complete/],
  ])('%s: every judged row ends `error` (%s) after SITECHAT_JUDGE_MAX_ATTEMPTS calls each', async (mode, errorType, options, message) => {
    judge.setMode(mode, options);
    const dataset = writeDataset(stack, HEADER, ROWS);
    const started = Date.now();
    const { summary, reportDir } = (await (await startRun(stack, dataset)).result()) as RunResult;

    expect(summary).toMatchObject({ total: ROWS.length, error: ROWS.length, passed: 0, failed: 0, errorsByType: { [errorType]: ROWS.length } });
    for (const r of readResults(reportDir)) {
      expect(r).toMatchObject({ outcome: 'error', errorType });
      expect(r.error).toMatch(message);
      expect(r.error).toMatch(/\(gave up after 2 attempts\)$/);
      expect(r.error).not.toContain(JUDGE_KEY);
    }
    // The judge's own limit, not the activity policy's 20 attempts.
    expect(judge.calls).toBe(LIMITS.maxAttempts * ROWS.length);
    // A guard against a stall only (on main, the trickle and the hour-long Retry-After held runs for hours).
    expect(Date.now() - started).toBeLessThan(120_000);
  });
});
