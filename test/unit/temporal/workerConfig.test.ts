import { describe, expect, it } from 'vitest';
import { ConfigError, workerConfigFromEnv } from '../../../src/temporal/workerConfig';

const base = { SITECHAT_BASE_URL: 'http://127.0.0.1:1/api/v1', SITECHAT_API_KEY: 'k' };

describe('workerConfigFromEnv', () => {
  it('refuses a worker with no slots for questions (it would take work and never do it)', () => {
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_MAX_CONCURRENT_ASKS: '0' })).toThrow(ConfigError);
    expect(() => workerConfigFromEnv({ ...base, SITECHAT_MAX_CONCURRENT_ASKS: '0' })).toThrow(/SITECHAT_MAX_CONCURRENT_ASKS must be a number >= 1, got "0"/);
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
});
