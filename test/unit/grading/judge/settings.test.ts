import { describe, expect, it } from 'vitest';
import { JudgeConfigError } from '../../../../src/grading/judge/errors';
import { createJudgeFromEnv } from '../../../../src/grading/judge/openaiJudge';
import { judgeSettingsFromEnv } from '../../../../src/grading/judge/settings';

const KEY = 'sk-judge-SECRET-123';
const env = { SITECHAT_JUDGE_BASE_URL: 'http://localhost:11434/v1/', SITECHAT_JUDGE_API_KEY: KEY, SITECHAT_JUDGE_MODEL: 'llama3.1' };

describe('judge settings from the environment', () => {
  it('is undefined when nothing is set, with defaults otherwise', () => {
    expect(judgeSettingsFromEnv({})).toBeUndefined();
    const s = judgeSettingsFromEnv(env);
    expect(s).toMatchObject({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', rpm: 60, timeoutMs: 60_000, maxAttempts: 6, maxRetryAfterMs: 60_000, temperature: 0, jsonMode: true });
    expect(s?.apiKey.reveal()).toBe(KEY);
    expect(JSON.stringify(s)).not.toContain(KEY);
  });

  it('reads the optional settings', () => {
    const s = judgeSettingsFromEnv({ ...env, SITECHAT_JUDGE_RPM: '600', SITECHAT_JUDGE_TIMEOUT_MS: '1500', SITECHAT_JUDGE_MAX_ATTEMPTS: '3', SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: '5000', SITECHAT_JUDGE_TEMPERATURE: 'none', SITECHAT_JUDGE_RESPONSE_FORMAT: 'none' });
    expect(s).toMatchObject({ rpm: 600, timeoutMs: 1500, maxAttempts: 3, maxRetryAfterMs: 5000, temperature: undefined, jsonMode: false });
    expect(judgeSettingsFromEnv({ ...env, SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: '0' })?.maxRetryAfterMs).toBe(0);
  });

  it.each([
    [{ SITECHAT_JUDGE_MODEL: 'm' }, /SITECHAT_JUDGE_BASE_URL, SITECHAT_JUDGE_API_KEY not set/],
    [{ ...env, SITECHAT_JUDGE_BASE_URL: 'localhost:11434' }, /SITECHAT_JUDGE_BASE_URL must use http or https/],
    [{ ...env, SITECHAT_JUDGE_BASE_URL: 'not a url' }, /SITECHAT_JUDGE_BASE_URL is not a valid URL/],
    [{ ...env, SITECHAT_JUDGE_BASE_URL: `http://u:${KEY}@host/v1` }, /must not contain credentials/],
    [{ ...env, SITECHAT_JUDGE_RPM: '-1' }, /SITECHAT_JUDGE_RPM must be a number >= 0, got "-1"/],
    [{ ...env, SITECHAT_JUDGE_TIMEOUT_MS: '300000' }, /SITECHAT_JUDGE_TIMEOUT_MS must be a number from 1 to 240000, got "300000"/],
    [{ ...env, SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: '-1' }, /SITECHAT_JUDGE_MAX_RETRY_AFTER_MS must be a number >= 0, got "-1"/],
    [{ ...env, SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: '1 minute' }, /SITECHAT_JUDGE_MAX_RETRY_AFTER_MS must be a number >= 0, got "1 minute"/],
    [{ ...env, SITECHAT_JUDGE_TEMPERATURE: 'hot' }, /SITECHAT_JUDGE_TEMPERATURE must be 0–2 or "none"/],
    [{ ...env, SITECHAT_JUDGE_RESPONSE_FORMAT: 'xml' }, /SITECHAT_JUDGE_RESPONSE_FORMAT must be/],
  ])('rejects %j naming the variable, never showing the key', (vars, message) => {
    let error: unknown;
    try {
      judgeSettingsFromEnv(vars);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JudgeConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('createJudgeFromEnv builds the judge, or says what to set', () => {
    expect(createJudgeFromEnv(env).model).toBe('llama3.1');
    expect(() => createJudgeFromEnv({})).toThrow(/no judge configured: set SITECHAT_JUDGE_BASE_URL/);
  });
});
