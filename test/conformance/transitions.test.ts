import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { completedRequest, EMAIL, expectApiError, SITE, useHarness } from './harness';

const h = useHarness();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function sessionById(id: string) {
  const { sessions } = await h().client.sessions.list(SITE);
  return sessions.find((s) => s.id === id);
}

/** Every transition of spec §3, one test each. */
describe('§3 Session', () => {
  it('(none) → active: chat without session_id creates a session and returns its id', async () => {
    const res = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
    expect(res.session_id).toMatch(UUID);
    expect(await sessionById(res.session_id)).toMatchObject({ email: EMAIL, closed_at: null });
  });

  it('(none) → active: chat with a session_id not yet known creates it under that id', async () => {
    const res = await h().client.chat.submit(SITE, { message: 'hi', session_id: 'thread-123' });
    expect(res.session_id).toBe('thread-123');
    expect(await sessionById('thread-123')).toMatchObject({ closed_at: null });
  });

  it('(none) → active: a caller-chosen UUID session_id creates the session, keeps the conversation and takes feedback', async () => {
    const chosen = randomUUID();
    const first = await h().client.chat.submit(SITE, { message: 'How do I reset my password?', session_id: chosen, email: EMAIL });
    expect(first.session_id).toBe(chosen);
    expect(await sessionById(chosen)).toMatchObject({ email: EMAIL, closed_at: null });
    const noEmail = await h().client.chat.submit(SITE, { message: 'And on mobile?', session_id: chosen });
    expect(noEmail.session_id).toBe(chosen);
    h().sim.advanceTime(31_000);
    expect((await h().client.requests.get(SITE, noEmail.request_id)).session_id).toBe(chosen);
    expect(await sessionById(chosen)).toMatchObject({ message_count: 4 });
    expect(await h().client.feedback.submit(SITE, { session_id: chosen, request_id: first.request_id, feedback: 'good' })).toMatchObject({ status: 'ok', feedback: 'good' });
    const { sessions } = await h().client.sessions.list(SITE);
    expect(sessions.filter((s) => s.id === chosen)).toHaveLength(1);
  });

  it('(none): email is required when no session_id is supplied', async () => {
    expect(await h().raw('POST', `/m2m/sites/${SITE}/chat/async`, '{"message":"hi"}')).toEqual({ status: 400, body: { error: 'invalid payload' } });
  });

  it('active → closed: close sets closed_at; response status ok', async () => {
    const { session_id } = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
    expect(await h().client.chat.closeSession(SITE, session_id)).toEqual({ status: 'ok' });
    expect((await sessionById(session_id))?.closed_at).toEqual(expect.any(String));
  });

  it('closed → closed: closing again is idempotent, 200 ok', async () => {
    const { session_id } = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
    await h().client.chat.closeSession(SITE, session_id);
    const closedAt = (await sessionById(session_id))?.closed_at;
    expect(await h().client.chat.closeSession(SITE, session_id)).toEqual({ status: 'ok' });
    expect((await sessionById(session_id))?.closed_at).toBe(closedAt);
  });

  it('closed: a chat naming a closed session is rejected (simulator decision: 409 session is closed)', async () => {
    const { session_id } = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
    await h().client.chat.closeSession(SITE, session_id);
    await expectApiError(h().client.chat.submit(SITE, { message: 'again', session_id }), 'ConflictError', 409, 'session is closed');
  });
});

describe('§3 Chat request (async)', () => {
  it('(none) → pending: submit returns a request_id and a placeholder', async () => {
    h().sim.setFaults({ 'chat.async': { processingDelayMs: 60_000 } }); // stays pending however slow the machine
    const res = await h().client.chat.submit(SITE, { message: 'Where is my data stored?', email: EMAIL });
    expect(res).toEqual({ request_id: expect.stringMatching(UUID), session_id: expect.stringMatching(UUID), status: 'pending', placeholder: expect.any(String) });
    expect(await h().client.requests.get(SITE, res.request_id)).toEqual({ session_id: res.session_id, request_id: res.request_id, status: 'pending' });
  });

  it('pending → completed: the answer becomes available in status', async () => {
    const { request_id } = await completedRequest(h(), 'Where is my data stored?');
    const status = await h().client.requests.get(SITE, request_id);
    expect(status).toMatchObject({ status: 'completed', answer: expect.stringContaining('United States') });
    expect(status.error).toBeUndefined();
  });

  it('pending → failed: error describes the failure, no answer', async () => {
    h().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const { request_id } = await completedRequest(h());
    const status = await h().client.requests.get(SITE, request_id);
    expect(status).toMatchObject({ status: 'failed', error: 'failed to call rag service' });
    expect(status.answer).toBeUndefined();
  });

  it('completed is final: later polls keep returning the same answer', async () => {
    const { request_id } = await completedRequest(h());
    const first = await h().client.requests.get(SITE, request_id);
    h().sim.advanceTime(60_000);
    expect(await h().client.requests.get(SITE, request_id)).toEqual(first);
  });
});

describe('§3 Feedback', () => {
  it('none → good or bad on a completed request; the timestamp is recorded', async () => {
    const ids = await completedRequest(h());
    expect(await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' })).toEqual({ status: 'ok', request_id: ids.request_id, feedback: 'good', feedback_submitted_at: expect.any(String) });
  });

  it('good → good: unchanged, the original submission time is returned', async () => {
    const ids = await completedRequest(h());
    const first = await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' });
    h().sim.advanceTime(5_000);
    expect((await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' })).feedback_submitted_at).toBe(first.feedback_submitted_at);
  });

  it('good → bad: feedback_submitted_at is updated', async () => {
    const ids = await completedRequest(h());
    const first = await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' });
    h().sim.advanceTime(5_000);
    const second = await h().client.feedback.submit(SITE, { ...ids, feedback: 'bad' });
    expect(second.feedback).toBe('bad');
    expect(second.feedback_submitted_at).not.toBe(first.feedback_submitted_at);
  });

  it('bad → good: feedback_submitted_at is updated', async () => {
    const ids = await completedRequest(h());
    const first = await h().client.feedback.submit(SITE, { ...ids, feedback: 'bad' });
    h().sim.advanceTime(5_000);
    const second = await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' });
    expect(second).toMatchObject({ feedback: 'good' });
    expect(Date.parse(String(second.feedback_submitted_at))).toBeGreaterThan(Date.parse(String(first.feedback_submitted_at)));
  });

  it('a pending request is rejected with 409', async () => {
    h().sim.setFaults({ 'chat.async': { processingDelayMs: 60_000 } }); // stays pending however slow the machine
    const { session_id, request_id } = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
    await expectApiError(h().client.feedback.submit(SITE, { session_id, request_id, feedback: 'bad' }), 'ConflictError', 409, 'feedback can only be submitted for completed responses');
  });

  it('a failed request is rejected with 409', async () => {
    h().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const ids = await completedRequest(h());
    await expectApiError(h().client.feedback.submit(SITE, { ...ids, feedback: 'bad' }), 'ConflictError', 409, 'feedback can only be submitted for completed responses');
  });
});

describe('§4.3 sync chat', () => {
  it('blocks until the answer; its request_id can be looked up with the status endpoint', async () => {
    const res = await h().client.chat.send(SITE, { message: 'How do I reset my password?', email: EMAIL });
    expect(res).toMatchObject({ answer: expect.stringContaining('Forgot password'), confidence_level: 'high' });
    expect(await h().client.requests.get(SITE, res.request_id)).toMatchObject({ status: 'completed', answer: res.answer });
  });
});
