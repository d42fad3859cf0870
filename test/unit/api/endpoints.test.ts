import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ResponseInfo, SiteChatClient } from '../../../src/api';
import { API_KEY, json, type Seen, withServer } from './server';

const SESSION = {
  id: 's-1',
  email: 'a@example.com',
  visitor_id: 'v-1',
  message_count: 4,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:05:00Z',
  closed_at: null,
};

/** Canned 200 bodies by "METHOD path-without-query", with an extra field to prove tolerance. */
const ROUTES: Record<string, unknown> = {
  'GET /api/v1/m2m/sites/site-1/sessions': { sessions: [SESSION, { ...SESSION, id: 's-2', closed_at: '2025-01-02T00:00:00Z' }], pagination: { limit: 50, offset: 0, total: 2 } },
  'POST /api/v1/m2m/sites/site-1/chat/session/close': { status: 'ok' },
  'POST /api/v1/m2m/sites/site-1/chat': { session_id: 's-1', request_id: 'r-1', answer: 'Hello', confidence_score: 87, confidence_level: 'high', confidence_reason: 'cited', extra: 1 },
  'POST /api/v1/m2m/sites/site-1/chat/async': { request_id: 'r-2', session_id: 's-1', status: 'pending', placeholder: 'Thinking…' },
  'GET /api/v1/m2m/sites/site-1/chat/requests/r-2': { session_id: 's-1', request_id: 'r-2', status: 'completed', answer: 'Done' },
  'POST /api/v1/m2m/sites/site-1/chat/feedback': { status: 'ok', request_id: 'r-2', feedback: 'bad', feedback_submitted_at: '2025-01-01T00:06:00Z' },
  'GET /api/v1/m2m/tenants/tenant-1/limits': { requests_per_second: 5, plan: { level: 2 } },
};

let env: Awaited<ReturnType<typeof withServer>>;
const infos: ResponseInfo[] = [];
const last = (): Seen => env.server.seen.at(-1) as Seen;

beforeAll(async () => {
  env = await withServer(
    (req, res) => {
      const key = `${req.method} ${req.url.split('?')[0] ?? ''}`;
      const body = ROUTES[key];
      if (body === undefined) json(res, 404, { error: `no route ${key}` });
      else json(res, 200, body);
    },
    { onResponse: (info) => infos.push(info) },
  );
});
afterAll(() => env.close());
beforeEach(() => {
  infos.length = 0;
});

describe('success shapes', () => {
  it('sessions.list returns sessions and pagination and sends the query', async () => {
    const page = await env.client.sessions.list('site-1', { email: 'a+b@example.com', limit: 10, offset: 20 });
    expect(page.sessions.map((s) => s.id)).toEqual(['s-1', 's-2']);
    expect(page.sessions[0]?.closed_at).toBeNull();
    expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    expect(last().method).toBe('GET');
    expect(last().url).toBe('/api/v1/m2m/sites/site-1/sessions?email=a%2Bb%40example.com&limit=10&offset=20');
    expect(last().headers['content-type']).toBeUndefined();
    expect(last().body).toBeUndefined();
  });

  it('sessions.list sends no query by default', async () => {
    await env.client.sessions.list('site-1');
    expect(last().url).toBe('/api/v1/m2m/sites/site-1/sessions');
  });

  it('chat.send returns the sync answer with confidence fields and keeps extra fields', async () => {
    const res = await env.client.chat.send('site-1', { message: 'Hi?', email: 'a@example.com', model: 'gpt-4o-mini', response_language: 'en', ui_locale: 'en-GB' });
    expect(res).toMatchObject({ session_id: 's-1', request_id: 'r-1', answer: 'Hello', confidence_score: 87, confidence_level: 'high', confidence_reason: 'cited' });
    expect(res['extra']).toBe(1);
    expect(last().body).toEqual({ message: 'Hi?', email: 'a@example.com', model: 'gpt-4o-mini', response_language: 'en', ui_locale: 'en-GB' });
  });

  it('chat.submit returns the pending request', async () => {
    const res = await env.client.chat.submit('site-1', { message: 'Hi?', session_id: 's-1' });
    expect(res).toEqual({ request_id: 'r-2', session_id: 's-1', status: 'pending', placeholder: 'Thinking…' });
    expect(last().body).toEqual({ message: 'Hi?', session_id: 's-1' });
  });

  it('requests.get returns the status', async () => {
    const res = await env.client.requests.get('site-1', 'r-2');
    expect(res).toEqual({ session_id: 's-1', request_id: 'r-2', status: 'completed', answer: 'Done' });
  });

  it('feedback.submit sends the body and returns the stored value', async () => {
    const res = await env.client.feedback.submit('site-1', { session_id: 's-1', request_id: 'r-2', feedback: 'bad' });
    expect(res).toEqual({ status: 'ok', request_id: 'r-2', feedback: 'bad', feedback_submitted_at: '2025-01-01T00:06:00Z' });
    expect(last().body).toEqual({ session_id: 's-1', request_id: 'r-2', feedback: 'bad' });
  });

  it('chat.closeSession posts the session id', async () => {
    expect(await env.client.chat.closeSession('site-1', 's-1')).toEqual({ status: 'ok' });
    expect(last().body).toEqual({ session_id: 's-1' });
  });

  it('tenants.limits returns the JSON body as a record', async () => {
    expect(await env.client.tenants.limits('tenant-1')).toEqual({ requests_per_second: 5, plan: { level: 2 } });
  });
});

describe('headers, encoding and hooks', () => {
  it('sends X-API-Key on every call and JSON content type on POST', async () => {
    await env.client.chat.submit('site-1', { message: 'x', session_id: 's-1' });
    expect(last().headers['x-api-key']).toBe(API_KEY);
    expect(last().headers['content-type']).toBe('application/json');
    await env.client.tenants.limits('tenant-1');
    expect(last().headers['x-api-key']).toBe(API_KEY);
  });

  it('URL-encodes path parameters', async () => {
    await env.client.requests.get('site/1?x', 'r 2#/..').catch(() => undefined);
    expect(last().url).toBe('/api/v1/m2m/sites/site%2F1%3Fx/chat/requests/r%202%23%2F..');
    await env.client.tenants.limits('të /x').catch(() => undefined);
    expect(last().url).toBe('/api/v1/m2m/tenants/t%C3%AB%20%2Fx/limits');
  });

  it('reports method, path template, status and duration to onResponse, never ids or the key', async () => {
    await env.client.requests.get('site-1', 'r-2');
    await env.client.requests.get('site-1', 'missing').catch(() => undefined);
    expect(infos.map((i) => [i.method, i.path, i.status])).toEqual([
      ['GET', '/m2m/sites/{site_id}/chat/requests/{request_id}', 200],
      ['GET', '/m2m/sites/{site_id}/chat/requests/{request_id}', 404],
    ]);
    expect(infos.every((i) => i.durationMs >= 0)).toBe(true);
    expect(JSON.stringify(infos)).not.toContain(API_KEY);
  });

  it('a throwing onResponse hook does not break the call', async () => {
    const client = new SiteChatClient({
      baseUrl: `${env.server.baseUrl}/`,
      apiKey: API_KEY,
      onResponse: () => {
        throw new Error('metrics down');
      },
    });
    await expect(client.tenants.limits('tenant-1')).resolves.toBeDefined();
    await client.close();
  });
});
