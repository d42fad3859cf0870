import { describe, expect, it } from 'vitest';
import { workerConfigFromEnv } from '../../../src/temporal/workerConfig';
import { ConfigError } from '../../../src/shared/configError';

const base = { SITECHAT_BASE_URL: 'http://127.0.0.1:1/api/v1', SITECHAT_API_KEY: 'k' };

describe('workerConfigFromEnv', () => {
  it('refuses a worker with no slots for questions (it would take work and never do it)', () => {
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_MAX_CONCURRENT_ASKS: '0' })).toThrow(ConfigError);
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_MAX_CONCURRENT_ASKS: '0' })).toThrow(/SITECHAT_MAX_CONCURRENT_ASKS must be a whole number >= 1, got "0"/);
    expect(workerConfigFromEnv({ ...base, SITECHAT_MAX_CONCURRENT_ASKS: '3' }).maxConcurrentAsks).toBe(3);
  });

  it('keeps 0 where it means "off" (rate limit)', () => {
    expect(workerConfigFromEnv({ ...base, SITECHAT_RATE_LIMIT: '0' }).ratePerSecond).toBe(0);
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_RATE_LIMIT: '-1' })).toThrow(/SITECHAT_RATE_LIMIT must be a number >= 0/);
  });

  it('reads how the API counts status polls: path by default, route on request, nothing else', () => {
    expect(workerConfigFromEnv(base).pollScope).toBe('path');
    expect(workerConfigFromEnv({ ...base, SITECHAT_POLL_SCOPE: 'route' }).pollScope).toBe('route');
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_POLL_SCOPE: 'site' })).toThrow(/SITECHAT_POLL_SCOPE must be "path" or "route", got "site"/);
  });

  it('reads the grace for new request ids: 30 s by default, 0 to turn it off, never negative', () => {
    expect(workerConfigFromEnv(base).newRequestGraceMs).toBe(30_000);
    expect(workerConfigFromEnv({ ...base, SITECHAT_NEW_REQUEST_GRACE_MS: '0' }).newRequestGraceMs).toBe(0);
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_NEW_REQUEST_GRACE_MS: '-1' })).toThrow(/SITECHAT_NEW_REQUEST_GRACE_MS must be a number >= 0, got "-1"/);
  });

  it('holds SITECHAT_STORE_URL as a secret, and refuses one that is not PostgreSQL without echoing it', () => {
    expect(workerConfigFromEnv(base).storeUrl).toBeUndefined();
    expect(workerConfigFromEnv({ ...base, SITECHAT_STORE_URL: ' ' }).storeUrl).toBeUndefined();
    const config = workerConfigFromEnv({ ...base, SITECHAT_STORE_URL: 'postgres://u:pa55@db:5432/sitechat' });
    expect(config.storeUrl?.reveal()).toBe('postgres://u:pa55@db:5432/sitechat');
    expect(JSON.stringify(config)).not.toContain('pa55');
    const error: unknown = (() => {
      try {
        return workerConfigFromEnv({ ...base, SITECHAT_STORE_URL: 'redis://u:pa55@db' });
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/SITECHAT_STORE_URL must start with postgres:\/\/ or postgresql:\/\//);
    expect(String(error)).not.toContain('pa55');
  });

  it('refuses every numeric setting a worker cannot work with: fractional slots, a 0 ms poll interval, judge limits', () => {
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_MAX_CONCURRENT_ASKS: '1.5' })).toThrow(/SITECHAT_MAX_CONCURRENT_ASKS must be a whole number >= 1, got "1.5"/);
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_POLL_INTERVAL_MS: '0' })).toThrow(/SITECHAT_POLL_INTERVAL_MS must be a number >= 1, got "0"/);
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_RATE_LIMIT: 'fast' })).toThrow(/SITECHAT_RATE_LIMIT must be a number >= 0, got "fast"/);
    const judge = { ...base, SITECHAT_JUDGE_BASE_URL: 'http://127.0.0.1:1/v1', SITECHAT_JUDGE_API_KEY: 'j', SITECHAT_JUDGE_MODEL: 'm' };
    expect(() => workerConfigFromEnv({ ...judge, SITECHAT_JUDGE_RPM: '-1' })).toThrow(/SITECHAT_JUDGE_RPM must be a number >= 0/);
    expect(() => workerConfigFromEnv({ ...judge, SITECHAT_JUDGE_MAX_ATTEMPTS: '0' })).toThrow(/SITECHAT_JUDGE_MAX_ATTEMPTS must be a number >= 1/);
    expect(() => workerConfigFromEnv({ ...judge, SITECHAT_JUDGE_TIMEOUT_MS: '0' })).toThrow(/SITECHAT_JUDGE_TIMEOUT_MS must be a number from 1 to 240000, got "0"/);
    expect(() => workerConfigFromEnv({ ...judge, SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: '-5' })).toThrow(/SITECHAT_JUDGE_MAX_RETRY_AFTER_MS must be a number >= 0, got "-5"/);
  });

  it('SITECHAT_GRADERS_DIR: an existing directory, resolved; none by default', () => {
    expect(workerConfigFromEnv(base).gradersDir).toBeUndefined();
    expect(workerConfigFromEnv({ ...base, SITECHAT_GRADERS_DIR: '.' }).gradersDir).toBe(process.cwd());
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_GRADERS_DIR: '/nonexistent/graders' })).toThrow(/SITECHAT_GRADERS_DIR must be an existing directory/);
  });
});
