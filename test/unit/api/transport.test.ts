import { afterEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  ConfigurationError,
  type ResponseInfo,
  SiteChatClient,
  type SiteChatClientOptions,
} from '../../../src/api';
import { API_KEY, json, startServer, type TestServer, withServer } from './server';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

async function setup(...args: Parameters<typeof withServer>) {
  const env = await withServer(...args);
  cleanups.push(env.close);
  return env;
}

async function error(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

const ANSWER = { session_id: 's', request_id: 'r', answer: 'a' };
const PENDING = { session_id: 's', request_id: 'r', status: 'pending' };

describe('timeouts', () => {
  it('a server that never answers → APIConnectionTimeoutError after the configured headers timeout', async () => {
    const { client } = await setup(() => undefined, { headersTimeoutMs: 150 });
    const started = Date.now();
    const err = await error(client.requests.get('site', 'r'));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect(err).toBeInstanceOf(APIConnectionError);
    const e = err as APIConnectionTimeoutError;
    expect(e.name).toBe('APIConnectionTimeoutError');
    expect(e.retryable).toBe(true);
    expect(e.status).toBeUndefined();
    expect(e.message).toContain('within 150 ms for GET /m2m/sites/{site_id}/chat/requests/{request_id}');
  });

  it('sync chat has its own, longer headers timeout; timeoutMs overrides per call', async () => {
    // undici's headers/body timers tick every ~500 ms, so a 100 ms timeout fires within ~1 s.
    const { client } = await setup(
      (req, res) => {
        setTimeout(() => json(res, 200, req.url.endsWith('/async') ? PENDING : ANSWER), 2000);
      },
      { headersTimeoutMs: 100, syncChatTimeoutMs: 5000 },
    );
    const body = { message: 'm', session_id: 's' };
    const [sync, async, overridden] = await Promise.all([
      error(client.chat.send('site', body)),
      error(client.chat.submit('site', body)),
      error(client.chat.submit('site', body, { timeoutMs: 5000 })),
    ]);
    expect(sync).toBeUndefined();
    expect(async).toBeInstanceOf(APIConnectionTimeoutError);
    expect(overridden).toBeUndefined();
  });

  it('a body that stalls → APIConnectionTimeoutError after the body timeout', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":');
      },
      { bodyTimeoutMs: 150 },
    );
    const err = await error(client.chat.closeSession('site', 's'));
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    expect((err as Error).message).toMatch(/^no response body data from /);
  });
});

describe('network errors, abort and close', () => {
  it('connection refused → APIConnectionError (retryable), onResponse sees no status', async () => {
    const server: TestServer = await startServer(() => undefined);
    await server.close();
    const infos: ResponseInfo[] = [];
    const client = new SiteChatClient({ baseUrl: server.baseUrl, apiKey: API_KEY, onResponse: (i) => infos.push(i) });
    cleanups.push(() => client.close());
    const err = await error(client.sessions.list('site'));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APIConnectionTimeoutError);
    const e = err as APIConnectionError;
    expect(e.retryable).toBe(true);
    expect(e.message).toContain('ECONNREFUSED');
    expect(e.message).toContain('check SITECHAT_BASE_URL');
    expect(e.endpoint).toBe('GET /m2m/sites/{site_id}/sessions');
    expect(infos).toHaveLength(1);
    expect(infos[0]?.status).toBeUndefined();
  });

  it('an aborted call rejects with the signal reason, unchanged', async () => {
    const { client } = await setup(() => undefined);
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    setTimeout(() => controller.abort(reason), 50);
    expect(await error(client.requests.get('site', 'r', { signal: controller.signal }))).toBe(reason);
    const aborted = AbortSignal.abort();
    expect(await error(client.tenants.limits('t', { signal: aborted }))).toBe(aborted.reason);
  });

  it('reuses one keep-alive connection', async () => {
    const { client, server } = await setup((_req, res) => json(res, 200, { ok: true }));
    for (let i = 0; i < 3; i++) await client.tenants.limits('t');
    expect(server.seen.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
  });

  it('close() closes the owned pool', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { ok: true }));
    await client.tenants.limits('t');
    await client.close();
    await client.close();
    const err = await error(client.tenants.limits('t'));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toContain('called after close()');
  });

  it('uses an injected dispatcher and leaves it open on close()', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('http://sitechat.test');
    pool.intercept({ path: '/api/v1/m2m/tenants/t%201/limits', method: 'GET', headers: { 'x-api-key': API_KEY } }).reply(200, { max: 1 }).times(2);
    const client = new SiteChatClient({ baseUrl: 'http://sitechat.test/api/v1', apiKey: API_KEY, dispatcher: agent });
    await expect(client.tenants.limits('t 1')).resolves.toEqual({ max: 1 });
    await client.close();
    const again = new SiteChatClient({ baseUrl: 'http://sitechat.test/api/v1/', apiKey: API_KEY, dispatcher: agent });
    await expect(again.tenants.limits('t 1')).resolves.toEqual({ max: 1 });
    await agent.close();
  });
});

describe('configuration', () => {
  const make = (o: Partial<SiteChatClientOptions>) => () => new SiteChatClient({ baseUrl: 'http://localhost:8080/api/v1', apiKey: API_KEY, ...o });

  it('requires the /api/v1 segment', () => {
    expect(make({ baseUrl: 'http://localhost:8080' })).toThrow(
      new ConfigurationError('SITECHAT_BASE_URL must end with /api/v1, got http://localhost:8080 — e.g. http://localhost:8080/api/v1'),
    );
    expect(make({ baseUrl: 'http://localhost:8080/api' })).toThrow(/must end with \/api\/v1/);
    expect(make({ baseUrl: 'http://localhost:8080/api/v2' })).toThrow(ConfigurationError);
  });

  it('accepts a trailing slash and a path prefix', async () => {
    expect(make({ baseUrl: 'http://localhost:8080/api/v1/' })().baseUrl).toBe('http://localhost:8080/api/v1');
    const { server } = await setup((_req, res) => json(res, 200, {}));
    const prefixed = new SiteChatClient({ baseUrl: server.baseUrl.replace('/api/v1', '/chat/api/v1/'), apiKey: API_KEY });
    cleanups.push(() => prefixed.close());
    await prefixed.tenants.limits('t');
    expect(server.seen[0]?.url).toBe('/chat/api/v1/m2m/tenants/t/limits');
  });

  it('rejects bad URLs, keys and timeouts with ConfigurationError', () => {
    expect(make({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
    expect(make({ baseUrl: 'ftp://host/api/v1' })).toThrow(/http or https/);
    expect(make({ baseUrl: 'http://host/api/v1?x=1' })).toThrow(/query or fragment/);
    expect(make({ baseUrl: 'http://user:pw@host/api/v1' })).toThrow(/must not contain credentials/);
    expect(make({ apiKey: '' })).toThrow(/SITECHAT_API_KEY is empty/);
    expect(make({ apiKey: `${API_KEY}\n` })).toThrow(/whitespace/);
    expect(make({ headersTimeoutMs: 0 })).toThrow(/headersTimeoutMs must be a positive number/);
    expect(make({ connections: 1.5 })).toThrow(/connections/);
    try {
      make({ baseUrl: 'http://host' })();
    } catch (err) {
      expect((err as ConfigurationError).name).toBe('ConfigurationError');
      expect((err as ConfigurationError).retryable).toBe(false);
    }
  });
});
