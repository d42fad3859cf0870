import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, sitechat } from '../helpers/cli';
import { HostileMode, startHostileJudge, type HostileJudge, type HostileOptions } from '../helpers/hostileJudge';

const JUDGE_KEY = 'sk-judge-grade-hostile-SECRET-4a1d';
const LIMITS = { SITECHAT_JUDGE_TIMEOUT_MS: '1500', SITECHAT_JUDGE_MAX_ATTEMPTS: '2', SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: '1000' };
/** Three recorded answers, one llm-rubric judgement each (the `rubric` column). */
const ANSWERS = [
  'id,question,rubric,answer',
  'g1,How much does the Personal plan cost?,mentions $9.99,"The Personal plan costs $9.99 per month."',
  'g2,How much storage do I get for free?,mentions 5 GB,"The Free plan includes 5 GB."',
  'g3,Which payment methods do you accept?,mentions PayPal,"Visa, Mastercard and PayPal."',
].join('\n') + '\n';
const ROWS = 3;

describe('sitechat grade against a hostile judge (the built CLI, a hostile judge over HTTP)', () => {
  let dir: string;
  let file: string;
  let judge: HostileJudge;
  let env: Record<string, string>;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-grade-hostile-'));
    file = join(dir, 'answers.csv');
    writeFileSync(file, ANSWERS);
    judge = await startHostileJudge();
    env = {
      SITECHAT_RUNS_DIR: join(dir, 'runs'), SITECHAT_JUDGE_BASE_URL: judge.baseUrl, SITECHAT_JUDGE_API_KEY: JUDGE_KEY,
      SITECHAT_JUDGE_MODEL: 'hostile', SITECHAT_JUDGE_RPM: '0', ...LIMITS,
    };
  });
  afterAll(async () => {
    await judge?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each<[HostileMode, string, HostileOptions, RegExp]>([
    [HostileMode.empty, 'JudgeResponseError', {}, /answered 200 with an empty body/],
    [HostileMode.trickle, 'JudgeConnectionError', { trickleEveryMs: 1000 }, /did not answer within 1500 ms/],
    [HostileMode.rateLimited, 'JudgeRateLimitError', { retryAfterSeconds: 3600 }, /^grading failed: 429 from the judge .*\(Retry-After: 3600000 ms\)$/],
    [HostileMode.notJson, 'JudgeResponseError', {}, /answered 200 with a body that is not JSON/],
    [HostileMode.wrongShape, 'JudgeResponseError', {}, /first choice has no `message`/],
    [HostileMode.reset, 'JudgeConnectionError', {}, /broke before the reply was complete/],
  ])('%s: every row ends `error` (%s) after SITECHAT_JUDGE_MAX_ATTEMPTS calls each; the command exits', async (mode, errorType, options, message) => {
    judge.setMode(mode, options);
    const out = join(dir, `out-${mode}`);
    const started = Date.now();
    const ran = await sitechat(dir, ['grade', file, '--out', out, '--json'], env);

    // 1: the rows are errors and the error rate is over its default of 0.
    expect(ran.code, ran.stderr).toBe(1);
    expect(JSON.parse(ran.stdout)).toMatchObject({ total: ROWS, error: ROWS, errorsByType: { [errorType]: ROWS } });
    const rows = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { outcome: string; errorType: string; error: string });
    for (const r of rows) {
      expect(r).toMatchObject({ outcome: 'error', errorType });
      expect(r.error).toMatch(message);
    }
    expect(judge.calls).toBe(2 * ROWS);
    expect(`${ran.stdout}${ran.stderr}${readFileSync(join(out, 'results.jsonl'), 'utf8')}`).not.toContain(JUDGE_KEY);
    // A guard against a hang only (on main, the trickle and the hour-long Retry-After held the command for hours).
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  it.each([
    ['SITECHAT_JUDGE_MAX_RETRY_AFTER_MS', 'soon', /SITECHAT_JUDGE_MAX_RETRY_AFTER_MS must be a number >= 0, got "soon"/],
    ['SITECHAT_JUDGE_TIMEOUT_MS', '600000', /SITECHAT_JUDGE_TIMEOUT_MS must be a number from 1 to 240000, got "600000"/],
  ])('a bad %s (%s) exits 2 naming it, before any judge call', async (name, value, message) => {
    judge.setMode(HostileMode.ok);
    const ran = await sitechat(dir, ['grade', file, '--out', join(dir, `bad-${name}`)], { ...env, [name]: value });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(judge.calls).toBe(0);
  });
});
