import { describe, expect, it } from 'vitest';
import { childEnv } from '../../../src/temporal/childEnv';

describe('childEnv', () => {
  it("drops the OTLP exporter's headers (a collector's token), keeps the other OTEL_* settings", () => {
    const env = childEnv({ PATH: '/bin', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer x', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=y', OTEL_SERVICE_NAME: 's' });
    expect(env).toEqual({ PATH: '/bin', OTEL_SERVICE_NAME: 's' });
  });

  it('drops SITECHAT_* keys, tokens, passwords and the store URL, keeps the rest', () => {
    const env = childEnv({ PATH: '/bin', HOME: '/root', SITECHAT_API_KEY: 'k', SITECHAT_JUDGE_API_KEY: 'j', SITECHAT_ADMIN_TOKEN: 't', SITECHAT_STORE_URL: 'postgres://u:pw@h/db', SITECHAT_RUNS_DIR: 'runs', HTTPS_PROXY: 'p' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/root', SITECHAT_RUNS_DIR: 'runs', HTTPS_PROXY: 'p' });
  });
});
