import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorOptions } from '../../../src/sim';
import { EMAIL, SimClient } from './helpers';

let client: SimClient | undefined;
async function withOptions(options: SimulatorOptions): Promise<SimClient> {
  client = new SimClient(await startSimulator({ rateLimit: 0, latencyScale: 0.01, ...options }));
  return client;
}
afterEach(async () => client?.sim.close());

describe('configurable decisions for "not shown" behaviour', () => {
  it("closedSessionChat 'accept': the message is answered, the session stays closed", async () => {
    const api = await withOptions({ closedSessionChat: 'accept' });
    const first = await api.completed({ message: 'hi', email: EMAIL });
    await api.post('/m2m/sites/demo-site/chat/session/close', { session_id: first.session_id });
    const again = await api.chatAsync({ message: 'hello again', session_id: first.session_id });
    expect(again.status).toBe(200);
    const list = await api.get<{ sessions: { closed_at: string | null; message_count: number }[] }>('/m2m/sites/demo-site/sessions');
    expect(list.body.sessions[0]).toMatchObject({ closed_at: expect.any(String), message_count: 3 });
  });

  it("closeUnknownSession 'ok': 200 ok and nothing is created", async () => {
    const api = await withOptions({ closeUnknownSession: 'ok' });
    expect(await api.post('/m2m/sites/demo-site/chat/session/close', { session_id: 'nope' })).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(api.sim.stats().sessions.total).toBe(0);
  });

  it("listLimitPolicy 'clamp': limit 501 → 500, limit 0 → 50, negative offset → 0; non-numeric still 400", async () => {
    const api = await withOptions({ listLimitPolicy: 'clamp' });
    const page = async (q: string) => (await api.get<{ pagination: unknown }>(`/m2m/sites/demo-site/sessions?${q}`)).body.pagination;
    expect(await page('limit=501')).toEqual({ limit: 500, offset: 0, total: 0 });
    expect(await page('limit=0&offset=-3')).toEqual({ limit: 50, offset: 0, total: 0 });
    expect((await api.get('/m2m/sites/demo-site/sessions?limit=abc')).status).toBe(400);
  });

  it("unknownModel 'fallback': answered with the site default", async () => {
    const api = await withOptions({ unknownModel: 'fallback' });
    const res = await api.chatAsync({ message: 'hi', email: EMAIL, model: 'gpt-99' });
    expect((await api.get(`/__sim/requests/${String(res.body.request_id)}`)).body.model).toBe('gpt-4o-mini');
  });

  it("feedbackResubmit 'omit': no timestamp when the same value comes again", async () => {
    const api = await withOptions({ feedbackResubmit: 'omit' });
    const done = await api.completed({ message: 'hi', email: EMAIL });
    const first = await api.post('/m2m/sites/demo-site/chat/feedback', { ...done, feedback: 'bad' });
    expect(first.body.feedback_submitted_at).toEqual(expect.any(String));
    const again = await api.post('/m2m/sites/demo-site/chat/feedback', { ...done, feedback: 'bad' });
    expect(again.body).toEqual({ status: 'ok', request_id: done.request_id, feedback: 'bad' });
  });

  it("feedbackUuidCheck 'request': caller-chosen session ids may take feedback", async () => {
    const api = await withOptions({ feedbackUuidCheck: 'request' });
    const done = await api.completed({ message: 'hi', session_id: 'crm-ticket-42', email: EMAIL });
    expect((await api.post('/m2m/sites/demo-site/chat/feedback', { ...done, feedback: 'good' })).status).toBe(200);
  });

  it('statusConfidence false: the status response carries only the spec fields', async () => {
    const api = await withOptions({ statusConfidence: false });
    const done = await api.completed({ message: 'hi', email: EMAIL });
    expect(Object.keys((await api.status(done.request_id)).body).sort()).toEqual(['answer', 'request_id', 'session_id', 'status']);
  });

  it('retryAfterSeconds null: 429 without Retry-After; sliding window', async () => {
    const api = await withOptions({ rateLimit: 1, retryAfterSeconds: null, rateLimitWindow: 'sliding' });
    await api.get('/m2m/sites/demo-site/sessions');
    const res = await api.get('/m2m/sites/demo-site/sessions');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('maxMessageLength and retentionMs are configurable', async () => {
    const api = await withOptions({ maxMessageLength: 10, retentionMs: 1_000 });
    expect((await api.chatAsync({ message: 'x'.repeat(11), email: EMAIL })).status).toBe(400);
    const done = await api.completed({ message: 'x'.repeat(10), email: EMAIL });
    expect((await api.status(done.request_id)).status).toBe(404); // 31 s passed, retention 1 s
  });

  it('rejects invalid options with the option name', async () => {
    await expect(startSimulator({ latencyScale: -1 })).rejects.toThrow(/latencyScale/);
    await expect(startSimulator({ rateLimit: 1.5 })).rejects.toThrow(/rateLimit/);
    await expect(startSimulator({ faults: { '*': { failRate: 3 } } })).rejects.toThrow(/\*\.failRate/);
  });
});
