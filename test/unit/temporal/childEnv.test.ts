import { describe, expect, it } from 'vitest';
import { ChildKind, childEnv } from '../../../src/temporal/childEnv';

/** What a worker's environment may hold: the operator names the webhook variables, so no pattern finds them. */
const SECRETS = {
  HOOK_URL: 'https://hooks.example.com/T0/B0/token', HOOK_SECRET: 's', SITECHAT_SLACK_WEBHOOK: 'https://hooks.slack.com/services/x',
  SITECHAT_API_KEY: 'k', SITECHAT_JUDGE_API_KEY: 'j', SITECHAT_STORE_URL: 'postgres://u:pw@h/db', OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer x',
  GOOGLE_APPLICATION_CREDENTIALS: '/creds.json', AWS_SECRET_ACCESS_KEY: 'a', GITHUB_TOKEN: 'g', NPM_TOKEN: 'n', NODE_OPTIONS: '--require /x.js',
};
const BASICS = { PATH: '/bin', HOME: '/root', TMPDIR: '/tmp', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC' };

describe('childEnv: an allow-list per kind of child', () => {
  it('gives the dev server the basics and nothing of sitechat, Temporal or any secret', () => {
    const env = childEnv(ChildKind.temporalServer, { ...BASICS, ...SECRETS, TEMPORAL_API_KEY: 't', TEMPORAL_ADDRESS: 'a:1', HTTPS_PROXY: 'p', SITECHAT_RUNS_DIR: 'runs' });
    expect(env).toEqual(BASICS);
  });

  it('gives `sitechat temporal` the TEMPORAL_* settings it talks to the server with, the terminal and proxies', () => {
    const env = childEnv(ChildKind.temporalCli, { ...BASICS, ...SECRETS, TEMPORAL_ADDRESS: 'a:1', TEMPORAL_API_KEY: 't', TEMPORAL_TLS_CA: '/ca', TERM: 'xterm', https_proxy: 'p', XDG_CONFIG_HOME: '/c' });
    expect(env).toEqual({ ...BASICS, TEMPORAL_ADDRESS: 'a:1', TEMPORAL_API_KEY: 't', TEMPORAL_TLS_CA: '/ca', TERM: 'xterm', https_proxy: 'p', XDG_CONFIG_HOME: '/c' });
  });

  it("gives pip and go their own settings by name (GOOGLE_… is not Go's), proxies and caches", () => {
    const env = childEnv(ChildKind.installer, { ...BASICS, ...SECRETS, GOPROXY: 'direct', GOBIN: '/b', CGO_ENABLED: '0', PIP_INDEX_URL: 'i', PYENV_VERSION: '3.11', HTTPS_PROXY: 'p', TEMPORAL_API_KEY: 't' });
    expect(env).toEqual({ ...BASICS, GOPROXY: 'direct', GOBIN: '/b', CGO_ENABLED: '0', PIP_INDEX_URL: 'i', PYENV_VERSION: '3.11', HTTPS_PROXY: 'p' });
  });

  it("matches Windows' names whatever their case", () => {
    expect(childEnv(ChildKind.temporalServer, { Path: 'C:\\bin', SystemRoot: 'C:\\Windows', hook_url: 'x' })).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows' });
  });
});
