import { describe, expect, it } from 'vitest';
import { childEnv } from '../../../src/temporal/childEnv';

describe('childEnv', () => {
  it('drops SITECHAT_* keys, tokens, passwords and the store URL, keeps the rest', () => {
    const env = childEnv({ PATH: '/bin', HOME: '/root', SITECHAT_API_KEY: 'k', SITECHAT_JUDGE_API_KEY: 'j', SITECHAT_ADMIN_TOKEN: 't', SITECHAT_STORE_URL: 'postgres://u:pw@h/db', SITECHAT_RUNS_DIR: 'runs', HTTPS_PROXY: 'p' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/root', SITECHAT_RUNS_DIR: 'runs', HTTPS_PROXY: 'p' });
  });
});
