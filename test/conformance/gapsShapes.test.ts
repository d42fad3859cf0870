import { describe, expect, it } from 'vitest';
import { parseTimestamp, RateLimitError, SiteChatClient } from '../../src/api';
import { DEMO, type ErrorBody, type TimestampFormat } from '../../src/sim';
import { completedRequest, EMAIL, expectApiError, SITE, useHarness, type Harness } from './harness';

/**
 * The client against both (or every) legal choice of each gap in the forms of the spec's responses — fields, ids,
 * timestamps, bodies, headers, the base path — one `describe` per choice, as docs/api-decisions-client.md says.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every endpoint once through the client, from a new session to its close; returns what came back. */
async function everyEndpoint(h: Harness, sessionId?: string) {
  const submitted = await h.client.chat.submit(SITE, { message: 'How do I reset my password?', email: EMAIL, ...(sessionId && { session_id: sessionId }) });
  h.sim.advanceTime(31_000);
  const status = await h.client.requests.get(SITE, submitted.request_id);
  const sync = await h.client.chat.send(SITE, { message: 'Where is my data stored?', session_id: submitted.session_id });
  const feedback = await h.client.feedback.submit(SITE, { session_id: submitted.session_id, request_id: submitted.request_id, feedback: 'good' });
  const list = await h.client.sessions.list(SITE);
  const closed = await h.client.chat.closeSession(SITE, submitted.session_id);
  const limits = await h.client.tenants.limits(DEMO.tenantId);
  return { submitted, status, sync, feedback, list, closed, limits };
}

describe('fields the spec does not list, in every response', () => {
  describe('extraFields false (default)', () => {
    const h = useHarness();
    it('only the spec fields (and the simulator\'s confidence on status)', async () => {
      const r = await everyEndpoint(h());
      expect(Object.keys(r.feedback).sort()).toEqual(['feedback', 'feedback_submitted_at', 'request_id', 'status']);
    });
  });
  describe('extraFields true', () => {
    const h = useHarness({ extraFields: true });
    it('every endpoint is read as before; the extra fields are kept, the spec fields are right', async () => {
      const r = await everyEndpoint(h());
      expect(r.status).toMatchObject({ status: 'completed', answer: expect.any(String), x_trace_id: expect.any(String), meta: expect.any(Object) });
      expect(r.sync).toMatchObject({ answer: expect.any(String), confidence_level: expect.any(String), deprecated_field: null });
      expect(r.feedback).toMatchObject({ status: 'ok', feedback: 'good', feedback_submitted_at: expect.any(String), x_trace_id: expect.any(String) });
      expect(r.list.sessions[0]).toMatchObject({ id: r.submitted.session_id, closed_at: null, x_trace_id: expect.any(String) });
      expect(r.list.pagination).toMatchObject({ total: 1, x_trace_id: expect.any(String) });
      expect(r.closed).toMatchObject({ status: 'ok' });
      expect(r.limits).toMatchObject({ models: expect.any(Array), x_trace_id: expect.any(String) });
    });
    it('error bodies with extra fields still give their `error`', async () => {
      await expectApiError(h().client.sessions.list('no-such-site'), 'SiteNotFoundError', 404, 'site not found');
    });
  });
});

describe('id formats ("only known as string")', () => {
  describe("idFormat 'uuid' (default)", () => {
    const h = useHarness();
    it('generated ids are UUIDs; a status lookup of an id that is not one is 400', async () => {
      const r = await everyEndpoint(h());
      expect(r.submitted.request_id).toMatch(UUID);
      expect(r.submitted.session_id).toMatch(UUID);
      await expectApiError(h().client.requests.get(SITE, 'req_1'), 'BadRequestError', 400, 'site id and request id are required');
    });
  });
  describe("idFormat 'opaque': any length, any characters", () => {
    const h = useHarness({ idFormat: 'opaque' });
    it('random ids that are not UUIDs, of many lengths, with characters a path must encode, go through every endpoint', async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 12; i++) {
        const r = await everyEndpoint(h());
        expect(r.submitted.request_id).not.toMatch(UUID);
        expect(r.status).toMatchObject({ request_id: r.submitted.request_id, session_id: r.submitted.session_id, status: 'completed' });
        expect(r.feedback.request_id).toBe(r.submitted.request_id);
        expect(r.list.sessions.map((s) => s.id)).toContain(r.submitted.session_id);
        for (const id of [r.submitted.request_id, r.submitted.session_id, r.sync.request_id]) seen.add(id);
        h().sim.reset();
      }
      expect(Math.max(...[...seen].map((id) => id.length))).toBeGreaterThan(Math.min(...[...seen].map((id) => id.length)));
      expect([...seen].some((id) => encodeURIComponent(id) !== id)).toBe(true);
    });
    it('a caller-chosen session id with the characters a path must encode names one session throughout', async () => {
      const r = await everyEndpoint(h(), 'thread a/b?c#d%e é');
      expect(r.submitted.session_id).toBe('thread a/b?c#d%e é');
      expect(r.list.sessions[0]).toMatchObject({ id: 'thread a/b?c#d%e é', message_count: 4 });
    });
  });
});

describe.each<TimestampFormat>(['utc', 'offset', 'naive'])('timestamps ("ISO 8601 strings"): %s', (timestamps) => {
  const h = useHarness({ timestamps });
  it('every timestamp reads back as the instant the server meant, to the millisecond', async () => {
    const r = await everyEndpoint(h());
    const listed = (await h().client.sessions.list(SITE)).sessions[0];
    const record = h().sim.simulator.sessions.get(SITE, r.submitted.session_id);
    const feedbackAt = h().sim.simulator.requests.get(r.submitted.request_id, h().sim.simulator.clock.now(), 86_400_000)?.feedback?.submittedAt;
    if (timestamps === 'offset') expect(listed?.created_at).toMatch(/\.\d{6}[+-]\d{2}:\d{2}$/);
    if (timestamps === 'naive') expect(listed?.created_at).toMatch(/T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(listed && parseTimestamp(listed.created_at)).toBe(record?.createdAt);
    expect(listed && parseTimestamp(listed.updated_at)).toBe(record?.updatedAt);
    expect(listed?.closed_at && parseTimestamp(listed.closed_at)).toBe(record?.closedAt);
    expect(r.feedback.feedback_submitted_at && parseTimestamp(r.feedback.feedback_submitted_at)).toBe(feedbackAt);
  });
});

describe('tenant limits body (fields not shown)', () => {
  for (const [limitsBody, expected] of [['full', { models: expect.arrayContaining(['gpt-4o-mini']) }], ['no-models', { plan: 'level2' }], ['empty', {}]] as const) {
    describe(`limitsBody '${limitsBody}'`, () => {
      const h = useHarness({ limitsBody });
      it('is returned as the object it is', async () => {
        const limits = await h().client.tenants.limits(DEMO.tenantId);
        expect(limits).toMatchObject(expected);
        if (limitsBody !== 'full') expect(limits.models).toBeUndefined();
        if (limitsBody === 'empty') expect(limits).toEqual({});
      });
    });
  }
});

describe.each<ErrorBody>(['json', 'html', 'empty'])('error bodies: %s', (errorBody) => {
  const h = useHarness({ errorBody });
  /** The API's `error` string where the body carries one; an HTML page gives its title; no body, nothing. */
  const said = (json: string, html: string): string | undefined => ({ json, html, empty: undefined })[errorBody];

  it('the status alone picks the class; `error` is the API string, the page title or absent', async () => {
    const c = h().client;
    const site404 = await c.sessions.list('no-such-site').catch((e: unknown) => e);
    // Only a JSON body says which 404 it is.
    expect(site404).toMatchObject({ name: errorBody === 'json' ? 'SiteNotFoundError' : 'NotFoundError', status: 404, error: said('site not found', 'Not Found'), retryable: false });
    await expect(c.requests.get(SITE, 'req_1')).rejects.toMatchObject({ name: 'BadRequestError', status: 400, error: said('site id and request id are required', 'Bad Request') });
    const { session_id } = await c.chat.submit(SITE, { message: 'hi', email: EMAIL });
    await c.chat.closeSession(SITE, session_id);
    await expect(c.chat.submit(SITE, { message: 'again', session_id })).rejects.toMatchObject({ name: 'ConflictError', status: 409, error: said('session is closed', 'Conflict') });
  });

  it('500 on every endpoint (its body "not shown" but for sync chat) is an InternalServerError, retryable', async () => {
    h().sim.setFaults({ '*': { failRate: 1 } });
    for (const call of [
      h().client.sessions.list(SITE), h().client.chat.closeSession(SITE, 's'), h().client.chat.send(SITE, { message: 'hi', email: EMAIL }),
      h().client.chat.submit(SITE, { message: 'hi', email: EMAIL }), h().client.requests.get(SITE, '0b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e'),
      h().client.feedback.submit(SITE, { session_id: 's', request_id: 'r', feedback: 'good' }), h().client.tenants.limits(DEMO.tenantId),
    ]) {
      await expect(call).rejects.toMatchObject({ name: 'InternalServerError', status: 500, error: said('failed to call rag service', 'Internal Server Error'), retryable: true });
    }
  });

  it('a 429 keeps its Retry-After whatever the body', async () => {
    h().sim.setFaults({ 'sessions.list': { rateLimitBurst: 1 } });
    await expect(h().client.sessions.list(SITE)).rejects.toMatchObject({ name: 'RateLimitError', status: 429, retryAfterMs: 1_000 });
  });
});

describe('Retry-After on a 429 (headers not shown)', () => {
  const burst = async (h: Harness): Promise<RateLimitError> => {
    h.sim.setFaults({ 'chat.async': { rateLimitBurst: 1 } });
    return (await h.client.chat.submit(SITE, { message: 'hi', email: EMAIL }).catch((e: unknown) => e)) as RateLimitError;
  };
  describe('seconds (default: 1)', () => {
    const h = useHarness();
    it('is retryAfterMs', async () => expect(await burst(h())).toMatchObject({ name: 'RateLimitError', retryAfterMs: 1_000 }));
  });
  describe('an HTTP date', () => {
    const h = useHarness({ retryAfterSeconds: 2, retryAfterFormat: 'http-date' });
    it('is the time until that date', async () => {
      const err = await burst(h());
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.retryAfterMs).toBeGreaterThan(0);
      expect(err.retryAfterMs).toBeLessThanOrEqual(3_000);
    });
  });
  describe('absent (retryAfterSeconds null)', () => {
    const h = useHarness({ retryAfterSeconds: null });
    it('is undefined: the caller waits its own ≥ 1 s', async () => {
      const err = await burst(h());
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.retryAfterMs).toBeUndefined();
    });
  });
});

describe('a base URL with a longer path prefix', () => {
  const h = useHarness({ basePath: '/proxy/site-chat/api/v1' });
  it('every endpoint works under https://host/proxy/site-chat/api/v1', async () => {
    expect(h().sim.baseUrl).toMatch(/\/proxy\/site-chat\/api\/v1$/);
    const r = await everyEndpoint(h());
    expect(r.status).toMatchObject({ status: 'completed' });
    expect(r.closed).toEqual({ status: 'ok' });
  });
  it('the plain /api/v1 of the same host is not the API there (404)', async () => {
    const plain = new SiteChatClient({ baseUrl: `${h().sim.origin}/api/v1`, apiKey: DEMO.apiKey });
    try {
      await expectApiError(plain.sessions.list(SITE), 'NotFoundError', 404, 'not found');
    } finally {
      await plain.close();
    }
  });
});

describe('confidence omitted when unavailable (§2)', () => {
  describe('syncConfidence and statusConfidence true (default)', () => {
    const h = useHarness();
    it('sync answer and status carry confidence_*', async () => {
      const r = await everyEndpoint(h());
      expect(r.sync).toMatchObject({ confidence_score: expect.any(Number), confidence_level: expect.any(String) });
      expect(r.status).toMatchObject({ confidence_score: expect.any(Number) });
    });
  });
  describe('syncConfidence and statusConfidence false', () => {
    const h = useHarness({ syncConfidence: false, statusConfidence: false });
    it('both are read without them', async () => {
      const r = await everyEndpoint(h());
      expect(Object.keys(r.sync).sort()).toEqual(['answer', 'request_id', 'session_id']);
      expect(r.status.confidence_score).toBeUndefined();
      const ids = await completedRequest(h());
      expect(await h().client.requests.get(SITE, ids.request_id)).toMatchObject({ status: 'completed', answer: expect.any(String) });
    });
  });
});
