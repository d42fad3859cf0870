import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/api';
import { DEMO } from '../../src/sim';
import { completedRequest, EMAIL, expectApiError, SITE, useHarness } from './harness';

const h = useHarness();
const UNKNOWN_UUID = '0b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e';

/** One test per row of spec §7 (Errors), in the table's order. */
describe('spec §7 errors', () => {
  it('400 `invalid limit or offset` — invalid query parameters (session list)', async () => {
    await expect(h().client.sessions.list(SITE, { limit: 501 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(await h().raw('GET', `/m2m/sites/${SITE}/sessions?limit=501`)).toEqual({ status: 400, body: { error: 'invalid limit or offset' } });
  });

  it('400 `session_id is required` — session_id missing or invalid (session close)', async () => {
    expect(await h().raw('POST', `/m2m/sites/${SITE}/chat/session/close`, '{}')).toEqual({ status: 400, body: { error: 'session_id is required' } });
    expect(await h().raw('POST', `/m2m/sites/${SITE}/chat/session/close`, '{"session_id": 5}')).toEqual({ status: 400, body: { error: 'session_id is required' } });
  });

  it('400 `invalid payload` — message missing, invalid JSON, or email missing for a new session (chat sync, chat async)', async () => {
    for (const path of [`/m2m/sites/${SITE}/chat`, `/m2m/sites/${SITE}/chat/async`]) {
      for (const body of ['{"email":"a@b.c"}', '{"message":', '{"message":"hi"}']) {
        expect(await h().raw('POST', path, body), `${path} ${body}`).toEqual({ status: 400, body: { error: 'invalid payload' } });
      }
    }
    await expectApiError(h().client.chat.submit(SITE, { message: '', email: EMAIL }), 'BadRequestError', 400, 'invalid payload');
  });

  it("400 `feedback must be 'good' or 'bad'` — ids missing, not UUIDs, or feedback not good/bad (feedback)", async () => {
    const { session_id, request_id } = await completedRequest(h());
    const invalid = "feedback must be 'good' or 'bad'";
    await expectApiError(h().client.feedback.submit(SITE, { session_id, request_id: 'not-a-uuid', feedback: 'good' }), 'BadRequestError', 400, invalid);
    await expectApiError(h().client.feedback.submit(SITE, { session_id: 'not-a-uuid', request_id, feedback: 'good' }), 'BadRequestError', 400, invalid);
    expect(await h().raw('POST', `/m2m/sites/${SITE}/chat/feedback`, JSON.stringify({ session_id, request_id, feedback: 'great' }))).toEqual({ status: 400, body: { error: invalid } });
    expect(await h().raw('POST', `/m2m/sites/${SITE}/chat/feedback`, JSON.stringify({ session_id, feedback: 'good' }))).toEqual({ status: 400, body: { error: invalid } });
  });

  it('400 `site id and request id are required` — malformed request id (status)', async () => {
    await expectApiError(h().client.requests.get(SITE, 'req-123'), 'BadRequestError', 400, 'site id and request id are required');
  });

  it('401 `invalid_api_key` — key missing, invalid, expired, revoked or of another tenant (all)', async () => {
    for (const key of ['sk-wrong', DEMO.expiredKey, DEMO.revokedKey]) {
      await expectApiError(h().clientWithKey(key).sessions.list(SITE), 'AuthenticationError', 401, 'invalid_api_key');
    }
    await expectApiError(h().clientWithKey(DEMO.otherApiKey).tenants.limits(DEMO.tenantId), 'AuthenticationError', 401, 'invalid_api_key');
    expect(await h().raw('GET', `/m2m/sites/${SITE}/sessions`, undefined, '')).toEqual({ status: 401, body: { error: 'invalid_api_key' } });
  });

  it('403 `api_access_not_available_on_plan` with a message naming Level 2 and Level 3 (all)', async () => {
    const call = h().clientWithKey(DEMO.level1ApiKey).chat.submit(DEMO.level1SiteId, { message: 'hi', email: EMAIL });
    await expect(call).rejects.toMatchObject({ name: 'PermissionDeniedError', status: 403, error: 'api_access_not_available_on_plan', apiMessage: expect.stringMatching(/Level 2 and Level 3/) });
  });

  it('404 `site not found` — site does not exist or belongs to another tenant (session list, session close, chat)', async () => {
    const c = h().client;
    await expectApiError(c.sessions.list('no-such-site'), 'SiteNotFoundError', 404, 'site not found');
    await expectApiError(c.chat.closeSession(DEMO.otherSiteId, 's-1'), 'SiteNotFoundError', 404, 'site not found');
    await expectApiError(c.chat.send(DEMO.otherSiteId, { message: 'hi', email: EMAIL }), 'SiteNotFoundError', 404, 'site not found');
    await expectApiError(c.chat.submit('no-such-site', { message: 'hi', email: EMAIL }), 'SiteNotFoundError', 404, 'site not found');
  });

  it('404 `request not found` — request unknown, of another site, or expired (feedback, status)', async () => {
    const { session_id, request_id } = await completedRequest(h());
    await expectApiError(h().client.requests.get(SITE, UNKNOWN_UUID), 'NotFoundError', 404, 'request not found');
    await expectApiError(h().client.requests.get('demo-empty-site', request_id), 'NotFoundError', 404, 'request not found');
    await expectApiError(h().client.feedback.submit(SITE, { session_id, request_id: UNKNOWN_UUID, feedback: 'good' }), 'NotFoundError', 404, 'request not found');
    h().sim.advanceTime(24 * 3_600_000);
    await expectApiError(h().client.requests.get(SITE, request_id), 'NotFoundError', 404, 'request not found');
  });

  it('409 `feedback can only be submitted for completed responses` — request pending or failed (feedback)', async () => {
    h().sim.setFaults({ 'chat.async': { processingDelayMs: 60_000 } }); // stays pending however slow the machine
    const pending = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
    const body = { session_id: pending.session_id, request_id: pending.request_id, feedback: 'good' as const };
    await expectApiError(h().client.feedback.submit(SITE, body), 'ConflictError', 409, 'feedback can only be submitted for completed responses');
  });

  it('429 `too many requests. please try again later` — rate limit exceeded (all M2M endpoints)', async () => {
    h().sim.setFaults({ 'sessions.list': { rateLimitBurst: 1 } });
    await expect(h().client.sessions.list(SITE)).rejects.toMatchObject({ name: 'RateLimitError', status: 429, error: 'too many requests. please try again later', retryable: true });
  });

  it('500 `failed to call rag service` — an internal dependency failed (all)', async () => {
    h().sim.setFaults({ '*': { failRate: 1 } });
    await expect(h().client.chat.send(SITE, { message: 'hi', email: EMAIL })).rejects.toMatchObject({ name: 'InternalServerError', status: 500, error: 'failed to call rag service', retryable: true });
    await expectApiError(h().client.sessions.list(SITE), 'InternalServerError', 500, 'failed to call rag service');
  });

  it('rule 2: a failed async request is HTTP 200 with status `failed` and an error string', async () => {
    h().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const { request_id } = await completedRequest(h());
    expect(await h().client.requests.get(SITE, request_id)).toMatchObject({ status: 'failed', error: 'failed to call rag service' });
  });
});
