import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestValidationError, ResponseValidationError, type SiteChatClient, SiteChatError } from '../../../src/api';
import { withServer } from './server';

let next = '{}';
let env: Awaited<ReturnType<typeof withServer>>;

beforeAll(async () => {
  env = await withServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(next);
  });
});
afterAll(() => env.close());

async function reject(body: unknown, call: (c: SiteChatClient) => Promise<unknown>): Promise<ResponseValidationError> {
  next = typeof body === 'string' ? body : JSON.stringify(body);
  const err: unknown = await call(env.client).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ResponseValidationError);
  const v = err as ResponseValidationError;
  expect(v.name).toBe('ResponseValidationError');
  expect(v.retryable).toBe(false);
  expect(v.status).toBe(200);
  return v;
}

const session = { id: 's', email: 'e', visitor_id: 'v', message_count: 1, created_at: 't', updated_at: 't', closed_at: null };

describe('response validation names the field and the endpoint', () => {
  it('missing nested session field', async () => {
    const { closed_at: _omit, ...broken } = session;
    const err = await reject({ sessions: [session, broken], pagination: { limit: 1, offset: 0, total: 2 } }, (c) => c.sessions.list('x'));
    expect(err.fieldPath).toBe('sessions[1].closed_at');
    expect(err.endpoint).toBe('GET /m2m/sites/{site_id}/sessions');
    expect(err.message).toContain('GET /m2m/sites/{site_id}/sessions');
    expect(err.message).toContain('`sessions[1].closed_at`');
  });

  it('mistyped pagination total', async () => {
    const err = await reject({ sessions: [], pagination: { limit: 1, offset: 0, total: '2' } }, (c) => c.sessions.list('x'));
    expect(err.fieldPath).toBe('pagination.total');
  });

  it('sync answer missing, confidence out of enum', async () => {
    expect((await reject({ session_id: 's', request_id: 'r' }, (c) => c.chat.send('x', { message: 'm', session_id: 's' }))).fieldPath).toBe('answer');
    const bad = { session_id: 's', request_id: 'r', answer: 'a', confidence_level: 'very' };
    expect((await reject(bad, (c) => c.chat.send('x', { message: 'm', session_id: 's' }))).fieldPath).toBe('confidence_level');
  });

  it('sync answer without confidence fields is valid', async () => {
    next = JSON.stringify({ session_id: 's', request_id: 'r', answer: 'a' });
    await expect(env.client.chat.send('x', { message: 'm', session_id: 's' })).resolves.toEqual({ session_id: 's', request_id: 'r', answer: 'a' });
  });

  it('unknown request status and completed without answer', async () => {
    expect((await reject({ session_id: 's', request_id: 'r', status: 'done' }, (c) => c.requests.get('x', 'r'))).fieldPath).toBe('status');
    expect((await reject({ session_id: 's', request_id: 'r', status: 'completed' }, (c) => c.requests.get('x', 'r'))).fieldPath).toBe('answer');
  });

  it('failed status with its error string is a value, not an exception', async () => {
    next = JSON.stringify({ session_id: 's', request_id: 'r', status: 'failed', error: 'failed to call rag service' });
    await expect(env.client.requests.get('x', 'r')).resolves.toMatchObject({ status: 'failed', error: 'failed to call rag service' });
  });

  it('async submit without request_id', async () => {
    expect((await reject({ session_id: 's', status: 'pending' }, (c) => c.chat.submit('x', { message: 'm', session_id: 's' }))).fieldPath).toBe('request_id');
  });

  it('feedback response: timestamp optional, feedback enum enforced', async () => {
    next = JSON.stringify({ status: 'ok', request_id: 'r', feedback: 'good' });
    await expect(env.client.feedback.submit('x', { session_id: 's', request_id: 'r', feedback: 'good' })).resolves.toEqual({ status: 'ok', request_id: 'r', feedback: 'good' });
    const err = await reject({ status: 'ok', request_id: 'r', feedback: 'meh' }, (c) => c.feedback.submit('x', { session_id: 's', request_id: 'r', feedback: 'good' }));
    expect(err.fieldPath).toBe('feedback');
  });

  it('close response status must be ok', async () => {
    expect((await reject({ status: 'closed' }, (c) => c.chat.closeSession('x', 's'))).fieldPath).toBe('status');
  });

  it('limits may be any JSON (§4.7: "a 2xx response with a JSON body"), a value other than an object read as {}; non-JSON bodies are rejected', async () => {
    for (const body of ['[1,2]', '"ok"', 'null', '7']) {
      next = body;
      expect(await env.client.tenants.limits('t'), body).toEqual({});
    }
    const err = await reject('<html>proxy</html>', (c) => c.tenants.limits('t'));
    expect(err.message).toContain('is not JSON');
    expect(err.message).toContain('SITECHAT_BASE_URL');
  });
});

describe('request validation happens before sending', () => {
  async function invalid(call: (c: SiteChatClient) => Promise<unknown>): Promise<RequestValidationError> {
    const before = env.server.seen.length;
    const err: unknown = await call(env.client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(err).toBeInstanceOf(SiteChatError);
    expect((err as SiteChatError).retryable).toBe(false);
    expect(env.server.seen.length).toBe(before);
    return err as RequestValidationError;
  }

  it('email is required for a new session', async () => {
    const err = await invalid((c) => c.chat.submit('x', { message: 'm' }));
    expect(err.fieldPath).toBe('email');
    expect(err.name).toBe('RequestValidationError');
    expect(err.message).toContain('POST /m2m/sites/{site_id}/chat/async');
  });

  it('unknown body keys, bad feedback values and limits out of range', async () => {
    expect((await invalid((c) => c.chat.send('x', { message: 'm', session_id: 's', sessionId: 's' } as never))).message).toContain('sessionId');
    expect((await invalid((c) => c.feedback.submit('x', { session_id: 's', request_id: 'r', feedback: 'ok' as never }))).fieldPath).toBe('feedback');
    expect((await invalid((c) => c.sessions.list('x', { limit: 501 }))).fieldPath).toBe('limit');
    expect((await invalid((c) => c.sessions.list('x', { offset: -1 }))).fieldPath).toBe('offset');
  });

  it('empty, "." and ".." path parameters are rejected', async () => {
    expect((await invalid((c) => c.sessions.list(''))).fieldPath).toBe('site_id');
    expect((await invalid((c) => c.requests.get('x', '..'))).fieldPath).toBe('request_id');
    expect((await invalid((c) => c.chat.closeSession('.', 's'))).fieldPath).toBe('site_id');
    expect((await invalid((c) => c.chat.closeSession('x', ''))).fieldPath).toBe('session_id');
  });
});
