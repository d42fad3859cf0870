import { describe, expect, it } from 'vitest';
import { RowLimit } from '../../../src/datasets/limits';
import { ApiError, WEAK_MODEL } from '../../../src/sim';
import { MAX_MESSAGE_LENGTH } from '../../../src/sim/constants';
import { EMAIL, UUID, useSimulator } from './helpers';

const api = useSimulator();

describe('chat, async (spec §4.4)', () => {
  it('accepts a message and creates a session when none is given', async () => {
    const res = await api().chatAsync({ message: 'How do I reset my password?', email: EMAIL });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ request_id: expect.stringMatching(UUID), session_id: expect.stringMatching(UUID), status: 'pending', placeholder: expect.any(String) });
  });

  it('creates a session under a caller-chosen id, email optional', async () => {
    const res = await api().chatAsync({ message: 'hello', session_id: 'crm-ticket-42' });
    expect(res.body).toMatchObject({ session_id: 'crm-ticket-42', status: 'pending' });
  });

  it('keeps the session for follow-ups', async () => {
    const first = await api().chatAsync({ message: 'How do I share a folder?', email: EMAIL });
    const second = await api().chatAsync({ message: 'Can I protect the link with a password?', session_id: first.body.session_id });
    expect(second.body.session_id).toBe(first.body.session_id);
    expect(second.body.request_id).not.toBe(first.body.request_id);
  });

  const invalid: [string, unknown, string?][] = [
    ['message missing', { email: EMAIL }],
    ['message blank', { message: '   ', email: EMAIL }],
    ['message not a string', { message: 42, email: EMAIL }],
    ['message longer than 16,000 characters', { message: 'x'.repeat(16_001), email: EMAIL }],
    ['no session_id and no email', { message: 'hi' }],
    ['empty session_id and no email', { message: 'hi', session_id: '' }],
    ['malformed email', { message: 'hi', email: 'not-an-email' }],
    ['session_id not a string', { message: 'hi', session_id: 7, email: EMAIL }],
    ['model not a string', { message: 'hi', email: EMAIL, model: 1 }],
    ['unknown model', { message: 'hi', email: EMAIL, model: 'gpt-99' }],
    ['a JSON array', [{ message: 'hi', email: EMAIL }]],
    ['invalid JSON', undefined, '{"message": "hi",'],
    ['empty body', undefined, ''],
  ];
  for (const [what, body, raw] of invalid) {
    it(`400 invalid payload: ${what}`, async () => {
      const res = await api().call('POST', '/m2m/sites/demo-site/chat/async', body, raw === undefined ? {} : { raw });
      expect(res).toMatchObject({ status: 400, body: { error: ApiError.invalidPayload } });
    });
  }

  it('accepts exactly 16,000 characters, and records response_language, ui_locale and model', async () => {
    const res = await api().chatAsync({ message: 'x'.repeat(16_000), email: EMAIL, model: WEAK_MODEL, response_language: 'de', ui_locale: 'de-AT' });
    expect(res.status).toBe(200);
    const stored = await api().get(`/__sim/requests/${String(res.body.request_id)}`);
    expect(stored.body).toMatchObject({ model: WEAK_MODEL, responseLanguage: 'de', uiLocale: 'de-AT', mode: 'async' });
  });

  it("accepts by default the longest question the runner's dataset check lets through, and no longer", () => {
    expect(MAX_MESSAGE_LENGTH).toBe(RowLimit.questionChars);
  });

  it('uses the site default model when none is given', async () => {
    const res = await api().chatAsync({ message: 'hi', email: EMAIL });
    expect((await api().get(`/__sim/requests/${String(res.body.request_id)}`)).body.model).toBe('gpt-4o-mini');
  });
});

describe('chat on a closed session (not shown: decision)', () => {
  it('is 409 session is closed by default', async () => {
    const first = await api().chatAsync({ message: 'hi', email: EMAIL });
    await api().post('/m2m/sites/demo-site/chat/session/close', { session_id: first.body.session_id });
    const again = await api().chatAsync({ message: 'hello again', session_id: first.body.session_id });
    expect(again).toMatchObject({ status: 409, body: { error: ApiError.sessionClosed } });
  });
});

describe('chat, sync (spec §4.3)', () => {
  it('blocks until the answer and returns it with confidence', async () => {
    const started = Date.now();
    const res = await api().chatSync({ message: 'How do I reset my password?', email: EMAIL });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45); // 5 s × 0.01 at least
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_id: expect.stringMatching(UUID),
      request_id: expect.stringMatching(UUID),
      answer: expect.stringContaining('Forgot password'),
      confidence_score: expect.any(Number),
      confidence_level: 'high',
      confidence_reason: expect.any(String),
    });
  });

  it('its request id is visible in the status endpoint while it runs and after', async () => {
    const pending = api().chatSync({ message: 'Where is my data stored?', email: EMAIL });
    await new Promise((r) => setTimeout(r, 20));
    const inspect = await api().get<{ sessions: { id: string }[] }>('/m2m/sites/demo-site/sessions');
    expect(inspect.body.sessions).toHaveLength(1);
    const res = await pending;
    const status = await api().status(String(res.body.request_id));
    expect(status.body).toMatchObject({ status: 'completed', answer: res.body.answer, session_id: res.body.session_id });
  });

  it('at the ceiling (60 s × latencyScale) answers 504 with the ids; the request completes later', async () => {
    api().sim.setFaults({ 'chat.sync': { processingDelayMs: 1_000 } }); // ceiling is 600 ms here
    const res = await api().chatSync({ message: 'How do I reset my password?', email: EMAIL });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ error: ApiError.syncTimeout, session_id: expect.stringMatching(UUID), request_id: expect.stringMatching(UUID) });
    expect((await api().status(String(res.body.request_id))).body.status).toBe('pending');
    api().sim.advanceTime(2_000);
    expect((await api().status(String(res.body.request_id))).body.status).toBe('completed');
  });

  it('a failed request is 500 failed to call rag service', async () => {
    api().sim.setFaults({ 'chat.sync': { asyncFailRate: 1 } });
    const res = await api().chatSync({ message: 'hi', email: EMAIL });
    expect(res).toMatchObject({ status: 500, body: { error: ApiError.ragFailure } });
  });
});
