import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sim';
import { EMAIL, UUID, useSimulator } from './helpers';

const api = useSimulator({ retentionMs: 3_600_000 });

describe('request status (spec §4.5, §3 Chat request)', () => {
  it('pending → completed with the answer and confidence', async () => {
    api().sim.setFaults({ 'chat.async': { processingDelayMs: 60_000 } }); // stays pending however slow the machine
    const { body } = await api().chatAsync({ message: 'What is the maximum file size I can upload?', email: EMAIL });
    const id = String(body.request_id);
    expect((await api().status(id)).body).toEqual({ session_id: body.session_id, request_id: id, status: 'pending' });
    api().sim.advanceTime(90_000);
    const done = await api().status(id);
    expect(done.body).toEqual({
      session_id: body.session_id, request_id: id, status: 'completed', answer: expect.stringContaining('50 GB'),
      confidence_score: expect.any(Number), confidence_level: expect.stringMatching(/^(low|medium|high)$/), confidence_reason: expect.any(String),
    });
  });

  it('completes in real time too: 5–30 s × latencyScale (50–300 ms here)', async () => {
    const { body } = await api().chatAsync({ message: 'hi', email: EMAIL });
    await new Promise((r) => setTimeout(r, 320));
    expect((await api().status(String(body.request_id))).body.status).toBe('completed');
  });

  it('pending → failed with error and no answer', async () => {
    api().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const { request_id } = await api().completed({ message: 'hi', email: EMAIL });
    const res = await api().status(request_id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session_id: expect.any(String), request_id, status: 'failed', error: ApiError.ragFailure });
  });

  for (const bad of ['not-a-uuid', '12345', '00000000-0000-4000-8000-00000000000Z', '%E0%A4%A']) {
    it(`400 site id and request id are required: ${bad}`, async () => {
      expect(await api().status(bad)).toMatchObject({ status: 400, body: { error: ApiError.statusParamsRequired } });
    });
  }

  it('404 request not found: unknown id, other site of the tenant, unknown site', async () => {
    const { request_id } = await api().completed({ message: 'hi', email: EMAIL });
    expect(await api().status('0b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e')).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
    expect(await api().status(request_id, 'demo-empty-site')).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
    expect(await api().status(request_id, 'no-such-site')).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
  });

  it('404 request not found once the retention period has passed', async () => {
    const { request_id } = await api().completed({ message: 'hi', email: EMAIL });
    api().sim.advanceTime(3_600_000);
    expect(await api().status(request_id)).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
  });
});

describe('feedback (spec §4.6, §3 Feedback)', () => {
  const feedback = (body: unknown, raw?: string) => api().call('POST', '/m2m/sites/demo-site/chat/feedback', body, raw === undefined ? {} : { raw });

  it('none → good, same value again returns the original time, switching updates it', async () => {
    const { request_id, session_id } = await api().completed({ message: 'How do I reset my password?', email: EMAIL });
    expect(session_id).toMatch(UUID);
    const first = await feedback({ session_id, request_id, feedback: 'good' });
    expect(first).toMatchObject({ status: 200, body: { status: 'ok', request_id, feedback: 'good', feedback_submitted_at: expect.any(String) } });
    api().sim.advanceTime(2_000);
    const again = await feedback({ session_id, request_id, feedback: 'good' });
    expect(again.body.feedback_submitted_at).toBe(first.body.feedback_submitted_at);
    const switched = await feedback({ session_id, request_id, feedback: 'bad' });
    expect(switched.body.feedback).toBe('bad');
    expect(Date.parse(String(switched.body.feedback_submitted_at))).toBeGreaterThan(Date.parse(String(first.body.feedback_submitted_at)));
    const back = await feedback({ session_id, request_id, feedback: 'good' });
    expect(back.body).toMatchObject({ feedback: 'good' });
    expect(api().sim.stats()).toMatchObject({ feedback: 4, feedbackByValue: { good: 3, bad: 1 } });
  });

  it('409 for a pending request and for a failed one', async () => {
    api().sim.setFaults({ 'chat.async': { processingDelayMs: 60_000 } }); // stays pending however slow the machine
    const pending = await api().chatAsync({ message: 'hi', email: EMAIL });
    const body = { session_id: pending.body.session_id, request_id: pending.body.request_id, feedback: 'good' };
    expect(await feedback(body)).toMatchObject({ status: 409, body: { error: ApiError.feedbackConflict } });
    api().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const failed = await api().completed({ message: 'hi', email: EMAIL });
    expect(await feedback({ ...failed, feedback: 'bad' })).toMatchObject({ status: 409, body: { error: ApiError.feedbackConflict } });
  });

  it('404 request not found: unknown request, session mismatch, other site', async () => {
    const done = await api().completed({ message: 'hi', email: EMAIL });
    const other = await api().completed({ message: 'hello', email: EMAIL });
    const notFound = { status: 404, body: { error: ApiError.requestNotFound } };
    expect(await feedback({ session_id: done.session_id, request_id: '0b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e', feedback: 'good' })).toMatchObject(notFound);
    expect(await feedback({ session_id: other.session_id, request_id: done.request_id, feedback: 'good' })).toMatchObject(notFound);
    const res = await api().post('/m2m/sites/demo-empty-site/chat/feedback', { ...done, feedback: 'good' });
    expect(res).toMatchObject(notFound);
  });

  const u = '0b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e';
  for (const [what, body, raw] of [
    ['feedback value not good/bad', { session_id: u, request_id: u, feedback: 'meh' }, undefined],
    ['feedback missing', { session_id: u, request_id: u }, undefined],
    ['session_id missing', { request_id: u, feedback: 'good' }, undefined],
    ['request_id missing', { session_id: u, feedback: 'good' }, undefined],
    ['request_id not a UUID', { session_id: u, request_id: 'r-1', feedback: 'good' }, undefined],
    ['session_id not a UUID', { session_id: 'crm-ticket-42', request_id: u, feedback: 'good' }, undefined],
    ['invalid JSON', undefined, '{"feedback":'],
  ] as const) {
    it(`400 feedback must be 'good' or 'bad': ${what}`, async () => {
      expect(await feedback(body, raw)).toMatchObject({ status: 400, body: { error: ApiError.invalidFeedback } });
    });
  }
});
