import { describe, expect, it } from 'vitest';
import { ApiError, MODEL_NAMES, startSimulator, type SimStats } from '../../../src/sim';
import { EMAIL, SimClient, useSimulator } from './helpers';

const api = useSimulator();

describe('admin routes (/__sim/, no key)', () => {
  it('GET /__sim/stats counts responses per endpoint and status, submissions, feedback and sessions', async () => {
    const done = await api().completed({ message: 'How do I reset my password?', email: EMAIL });
    await api().chatSync({ message: 'How do I reset my password?', session_id: done.session_id });
    await api().post('/m2m/sites/demo-site/chat/feedback', { ...done, feedback: 'good' });
    await api().get('/m2m/sites/demo-site/sessions', { key: 'bad' });
    const res = await api().get<SimStats>('/__sim/stats', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      requests: { 'chat.async': { 200: 1 }, 'chat.sync': { 200: 1 }, 'feedback.submit': { 200: 1 }, 'sessions.list': { 401: 1 } },
      rateLimited: 0,
      submitted: 2,
      submittedByMode: { sync: 1, async: 1 },
      chatRequests: { pending: 0, completed: 2, failed: 0 },
      feedback: 1,
      sessions: { total: 1, closed: 0 },
      duplicateSubmissions: 1,
      faults: { errors: 0, asyncFailures: 0, dropped: 0, bursts: 0, delayed: 0 },
      maxConcurrent: expect.any(Number),
      maxConcurrentPerPath: expect.any(Number),
      peakRatePerPath: { 'chat.async': 1 },
    });
  });

  it('tracks concurrency per path', async () => {
    await Promise.all([1, 2, 3].map(() => api().chatSync({ message: 'hi', email: EMAIL })));
    expect(api().sim.stats().maxConcurrentPerPath).toBe(3);
  });

  it('POST /__sim/reset clears state and stats', async () => {
    await api().chatAsync({ message: 'hi', email: EMAIL });
    expect((await api().post('/__sim/reset', {}, { key: null })).body).toEqual({ status: 'ok' });
    const stats = api().sim.stats();
    expect(stats).toMatchObject({ submitted: 0, requests: {}, sessions: { total: 0, closed: 0 } });
    expect((await api().get<{ pagination: { total: number } }>('/m2m/sites/demo-site/sessions')).body.pagination.total).toBe(0);
  });

  it('POST /__sim/time/advance completes pending requests', async () => {
    const { body } = await api().chatAsync({ message: 'hi', email: EMAIL });
    const res = await api().post('/__sim/time/advance', { ms: 30_000 });
    expect(res.body).toMatchObject({ now: expect.any(String), offsetMs: 30_000 });
    expect((await api().status(String(body.request_id))).body.status).toBe('completed');
    expect((await api().post('/__sim/time/advance', { ms: -1 })).status).toBe(400);
  });

  it('GET /__sim/requests/{id} shows how an answer was made; unknown routes are 404, wrong methods 405', async () => {
    const { request_id } = await api().completed({ message: 'Where is my data stored?', email: EMAIL });
    const res = await api().get(`/__sim/requests/${request_id}`);
    expect(res.body).toMatchObject({ id: request_id, status: 'completed', source: { kind: 'qa', title: 'Data location' } });
    expect((await api().get('/__sim/nope')).status).toBe(404);
    expect((await api().post('/__sim/stats', {})).status).toBe(405);
  });
});

describe('API routes outside the spec', () => {
  it('GET tenant limits returns a plausible body (spec §4.7: body not shown)', async () => {
    const res = await api().get('/m2m/tenants/demo-tenant/limits');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tenant_id: 'demo-tenant', plan: 'level2', api_access: true,
      rate_limit: { requests_per_second: 0, scope: 'client_ip_and_path' },
      sessions: { list_default_limit: 50, list_max_limit: 500 },
      models: [...MODEL_NAMES], sites: ['demo-site', 'demo-empty-site'],
    });
  });

  it('documents: validates each shape and names the field at fault', async () => {
    const post = (body: unknown) => api().post('/m2m/sites/demo-site/documents', body);
    expect((await post({ title: 'T', content: 'Some text.' })).status).toBe(201);
    const batch = await post({ documents: [{ title: 'A', content: 'a' }, { title: 'B', question: 'q?', answer: 'a.' }] });
    expect(batch.body).toMatchObject({ status: 'ok', documents: [{ type: 'text', title: 'A' }, { type: 'qa', title: 'B' }] });
    for (const [body, field] of [
      [{ content: 'x' }, 'title'], [{ title: 'T' }, 'content'], [{ title: 'T', question: 'q?' }, 'answer'],
      [{ title: 'T', content: 'x', question: 'q', answer: 'a' }, 'one shape'], [{ documents: [{ title: 'A', content: 'a' }, { title: '' }] }, 'documents[1].title'],
    ] as const) {
      const res = await post(body);
      expect(res).toMatchObject({ status: 400, body: { error: ApiError.invalidPayload } });
      expect(res.body.message).toContain(field);
    }
    const listed = await api().get<{ total: number }>('/m2m/sites/demo-site/documents');
    expect(listed.body.total).toBe(36 + 3);
  });

  it('unknown API paths are 404 not found; wrong methods 405 with Allow', async () => {
    expect(await api().get('/m2m/sites/demo-site/nothing')).toMatchObject({ status: 404, body: { error: ApiError.notFound } });
    const res = await api().get('/m2m/sites/demo-site/chat/async');
    expect(res).toMatchObject({ status: 405, body: { error: ApiError.methodNotAllowed } });
    expect(res.headers.allow).toBe('POST');
  });

  it('a body over the size limit is 413', async () => {
    const res = await api().post('/m2m/sites/demo-site/chat/async', { message: 'x'.repeat(1_100_000), email: EMAIL });
    expect(res).toMatchObject({ status: 413, body: { error: ApiError.bodyTooLarge } });
  });
});

describe('admin token', () => {
  it('with a token, admin routes answer 401 without it and 200 with it (Bearer or X-Admin-Token); the API is unaffected', async () => {
    const client = new SimClient(await startSimulator({ rateLimit: 0, adminToken: 'let-me-in' }));
    try {
      expect(client.sim.adminToken).toBe('let-me-in');
      const denied = await client.get('/__sim/stats', { adminToken: '' });
      expect(denied.status).toBe(401);
      expect(denied.body).toEqual({ error: 'admin token required' });
      expect(denied.headers['www-authenticate']).toBe('Bearer');
      expect((await client.get('/__sim/requests/x', { adminToken: 'wrong' })).status).toBe(401);
      expect((await client.post('/__sim/reset', {}, { adminToken: '' })).status).toBe(401);
      expect((await client.get('/__sim/stats')).status).toBe(200);
      expect((await client.get('/__sim/stats', { adminToken: 'let-me-in' })).status).toBe(200);
      expect((await client.get('/m2m/sites/demo-site/sessions')).status).toBe(200);
    } finally {
      await client.sim.close();
    }
  });

  it('listening beyond loopback without a token, one is generated and required', async () => {
    const client = new SimClient(await startSimulator({ rateLimit: 0, host: '0.0.0.0' }));
    try {
      expect(client.sim.adminToken).toMatch(/^[\w-]{32}$/);
      expect((await client.get('/__sim/health', { adminToken: '' })).status).toBe(401);
      expect((await client.get('/__sim/health')).body).toEqual({ ok: true });
    } finally {
      await client.sim.close();
    }
  });

  it('on loopback without a token the admin routes stay open', async () => {
    expect(api().sim.adminToken).toBeNull();
    expect((await api().get('/__sim/health', { adminToken: '' })).status).toBe(200);
  });
});
