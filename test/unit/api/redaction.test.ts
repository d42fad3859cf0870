import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteChatClient, SiteChatError } from '../../../src/api';
import { API_KEY, json, startServer, withServer } from './server';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

/** Every way an object might be printed or logged. */
function renderings(value: unknown): string[] {
  const out = [
    JSON.stringify(value) ?? '',
    inspect(value),
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    String(value),
    `${String(value)}`,
  ];
  if (value instanceof Error) out.push(value.message, value.stack ?? '', inspect(value.cause, { showHidden: true, depth: Infinity }));
  return out;
}

function expectClean(value: unknown, key = API_KEY): void {
  for (const text of renderings(value)) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(encodeURIComponent(key));
  }
}

async function caught(promise: Promise<unknown>): Promise<SiteChatError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SiteChatError);
  return err as SiteChatError;
}

describe('the API key never leaks', () => {
  it('is sent only in X-API-Key', async () => {
    const env = await withServer((_req, res) => json(res, 200, { request_id: 'r', session_id: 's', status: 'pending' }));
    cleanups.push(env.close);
    await env.client.chat.submit('site', { message: 'm', session_id: 's' });
    const [req] = env.server.seen;
    expect(req?.headers['x-api-key']).toBe(API_KEY);
    const { 'x-api-key': _key, ...others } = req?.headers ?? {};
    expect(JSON.stringify({ url: req?.url, body: req?.body, others })).not.toContain(API_KEY);
  });

  it('is not in the client: JSON, inspect, String, keys, resources', () => {
    const client = new SiteChatClient({ baseUrl: 'http://localhost:1/api/v1', apiKey: API_KEY });
    cleanups.push(() => client.close());
    expectClean(client);
    expect(JSON.stringify(client)).toBe('{"baseUrl":"http://localhost:1/api/v1","apiKey":"[REDACTED]"}');
    expect(inspect(client)).toContain('[REDACTED]');
    expect(String(client)).toBe('SiteChatClient(http://localhost:1/api/v1)');
    expect(Object.keys(client)).not.toContain('apiKey');
    for (const resource of [client.sessions, client.chat, client.requests, client.feedback, client.tenants]) {
      expect(inspect(resource, { showHidden: true, depth: Infinity })).not.toContain(API_KEY);
    }
  });

  it('is scrubbed from error bodies that echo it (JSON and non-JSON)', async () => {
    let reply = (res: Parameters<Parameters<typeof withServer>[0]>[1]) => json(res, 401, { error: `invalid_api_key ${API_KEY}`, message: `key ${API_KEY} revoked` });
    const env = await withServer((_req, res) => reply(res));
    cleanups.push(env.close);
    const auth = await caught(env.client.sessions.list('site'));
    expect(auth.error).toBe('invalid_api_key [REDACTED]');
    expect(auth.apiMessage).toBe('key [REDACTED] revoked');
    expectClean(auth);

    reply = (res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`upstream said: bad header X-API-Key=${API_KEY}`);
    };
    const internal = await caught(env.client.requests.get('site', 'r'));
    expect(internal.error).toContain('[REDACTED]');
    expectClean(internal);

    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`echo ${API_KEY}`);
    };
    expectClean(await caught(env.client.tenants.limits('t')));
  });

  it('is scrubbed in URL-encoded form too', async () => {
    const key = 'sk+abc/def=';
    const server = await startServer((_req, res) => json(res, 403, { error: 'api_access_not_available_on_plan', message: `for ${encodeURIComponent(key)}` }));
    const client = new SiteChatClient({ baseUrl: server.baseUrl, apiKey: key });
    cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    const err = await caught(client.chat.send('site', { message: 'm', session_id: 's' }));
    expect(err.apiMessage).toBe('for [REDACTED]');
    expectClean(err, key);
    expectClean(client, key);
  });

  it('is not in connection, timeout or configuration errors', async () => {
    const server = await startServer(() => undefined);
    const client = new SiteChatClient({ baseUrl: server.baseUrl, apiKey: API_KEY, headersTimeoutMs: 100 });
    expectClean(await caught(client.sessions.list('site')));
    await server.close();
    expectClean(await caught(client.sessions.list('site')));
    await client.close();

    let config: unknown;
    try {
      new SiteChatClient({ baseUrl: `http://host/${API_KEY}`, apiKey: API_KEY });
    } catch (err) {
      config = err;
    }
    expect(config).toBeInstanceOf(SiteChatError);
    expectClean(config);
  });
});
