import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/api';
import type { SessionOrder } from '../../src/sim';
import { completedRequest, EMAIL, expectApiError, SITE, useHarness } from './harness';

/**
 * The client against both (or every) legal choice of each gap in the spec's states and lists, one `describe` per
 * choice: what docs/api-decisions-client.md says the client does with each. Shapes and forms: gapsShapes.test.ts.
 */

async function openSessions(h: ReturnType<ReturnType<typeof useHarness>>, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await h.client.chat.submit(SITE, { message: `q${i}`, session_id: `${tag}-${i}`, email: EMAIL })).session_id);
  return ids;
}

describe.each<SessionOrder>(['newest-first', 'oldest-first', 'unsorted'])('§4.1 sort order of the session list: %s', (sessionOrder) => {
  const h = useHarness({ sessionOrder });

  it('the list comes in that order, the same on every call', async () => {
    const ids = await openSessions(h(), 9, 'order');
    const listed = (await h().client.sessions.list(SITE, { limit: 500 })).sessions.map((s) => s.id);
    expect(new Set(listed)).toEqual(new Set(ids));
    if (sessionOrder === 'newest-first') expect(listed).toEqual([...ids].reverse());
    if (sessionOrder === 'oldest-first') expect(listed).toEqual(ids);
    if (sessionOrder === 'unsorted') {
      expect(listed).not.toEqual(ids);
      expect(listed).not.toEqual([...ids].reverse());
    }
    expect((await h().client.sessions.list(SITE, { limit: 500 })).sessions.map((s) => s.id)).toEqual(listed);
  });

  it('iterate yields every session once, also when a session is created while it pages', async () => {
    const ids = await openSessions(h(), 10, 'page');
    const seen: string[] = [];
    for await (const s of h().client.sessions.iterate(SITE, { pageSize: 3 })) {
      if (seen.length === 0) await openSessions(h(), 1, 'late');
      seen.push(s.id);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
  });
});

describe('§3 chat naming a closed session', () => {
  describe("closedSessionChat 'reject' (default): 409 `session is closed`", () => {
    const h = useHarness();
    it('is a ConflictError that says the session is closed and to ask in a new one', async () => {
      const { session_id } = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
      await h().client.chat.closeSession(SITE, session_id);
      const err = await h().client.chat.submit(SITE, { message: 'again', session_id }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ConflictError', status: 409, error: 'session is closed', retryable: false });
      expect((err as Error).message).toContain('ask in a new session_id');
    });
  });

  describe("closedSessionChat 'accept': answered, the session stays closed", () => {
    const h = useHarness({ closedSessionChat: 'accept' });
    it('the chat is answered and closed_at is unchanged', async () => {
      const { session_id } = await h().client.chat.submit(SITE, { message: 'hi', email: EMAIL });
      await h().client.chat.closeSession(SITE, session_id);
      const closedAt = (await h().client.sessions.list(SITE)).sessions[0]?.closed_at;
      expect(await h().client.chat.send(SITE, { message: 'How do I reset my password?', session_id })).toMatchObject({ session_id, answer: expect.any(String) });
      expect((await h().client.sessions.list(SITE)).sessions[0]).toMatchObject({ id: session_id, closed_at: closedAt });
    });
  });
});

describe('§4.2 close of a session the site does not know', () => {
  describe("closeUnknownSession 'not-found' (default)", () => {
    const h = useHarness();
    it('is a NotFoundError, not retryable (the runner closes only sessions the API has seen)', async () => {
      await expectApiError(h().client.chat.closeSession(SITE, 'never-seen'), 'NotFoundError', 404, 'session not found');
    });
  });
  describe("closeUnknownSession 'ok'", () => {
    const h = useHarness({ closeUnknownSession: 'ok' });
    it('succeeds like any close', async () => {
      expect(await h().client.chat.closeSession(SITE, 'never-seen')).toEqual({ status: 'ok' });
    });
  });
});

describe('§4.6 the same feedback again', () => {
  describe("feedbackResubmit 'original' (default): the first time is returned", () => {
    const h = useHarness();
    it('both answers carry the same feedback_submitted_at', async () => {
      const ids = await completedRequest(h());
      const first = await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' });
      h().sim.advanceTime(5_000);
      expect(await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' })).toEqual(first);
    });
  });
  describe("feedbackResubmit 'omit': no timestamp", () => {
    const h = useHarness({ feedbackResubmit: 'omit' });
    it('the second answer is accepted without feedback_submitted_at', async () => {
      const ids = await completedRequest(h());
      expect((await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' })).feedback_submitted_at).toEqual(expect.any(String));
      expect(await h().client.feedback.submit(SITE, { ...ids, feedback: 'good' })).toEqual({ status: 'ok', request_id: ids.request_id, feedback: 'good' });
    });
  });
});

describe('§7 feedback on ids that are not UUIDs', () => {
  describe("feedbackUuidCheck 'both' (default): 400", () => {
    const h = useHarness();
    it("a caller-chosen session id is refused with `feedback must be 'good' or 'bad'`", async () => {
      const { request_id } = await h().client.chat.submit(SITE, { message: 'hi', session_id: 'thread-a', email: EMAIL });
      h().sim.advanceTime(31_000);
      await expectApiError(h().client.feedback.submit(SITE, { session_id: 'thread-a', request_id, feedback: 'good' }), 'BadRequestError', 400, "feedback must be 'good' or 'bad'");
    });
  });
  describe("feedbackUuidCheck 'request': only the request id must be one", () => {
    const h = useHarness({ feedbackUuidCheck: 'request' });
    it('the same feedback is taken', async () => {
      const { request_id } = await h().client.chat.submit(SITE, { message: 'hi', session_id: 'thread-a', email: EMAIL });
      h().sim.advanceTime(31_000);
      expect(await h().client.feedback.submit(SITE, { session_id: 'thread-a', request_id, feedback: 'good' })).toMatchObject({ status: 'ok' });
    });
  });
});

describe('a model the server does not know', () => {
  describe("unknownModel 'reject' (default)", () => {
    const h = useHarness();
    it('is 400 `invalid payload`', async () => {
      await expectApiError(h().client.chat.send(SITE, { message: 'hi', email: EMAIL, model: 'gpt-99' }), 'BadRequestError', 400, 'invalid payload');
    });
  });
  describe("unknownModel 'fallback'", () => {
    const h = useHarness({ unknownModel: 'fallback' });
    it('is answered (by the site default)', async () => {
      expect(await h().client.chat.send(SITE, { message: 'How do I reset my password?', email: EMAIL, model: 'gpt-99' })).toMatchObject({ answer: expect.any(String) });
    });
  });
});

describe('§8 limits the spec does not give', () => {
  describe('retention 1 s, message length 20', () => {
    const h = useHarness({ retentionMs: 1_000, maxMessageLength: 20 });
    it('a request past retention is 404 `request not found`, for status and feedback', async () => {
      const ids = await completedRequest(h(), 'short question');
      await expectApiError(h().client.requests.get(SITE, ids.request_id), 'NotFoundError', 404, 'request not found');
      await expectApiError(h().client.feedback.submit(SITE, { ...ids, feedback: 'good' }), 'NotFoundError', 404, 'request not found');
    });
    it('a longer message is 400 `invalid payload`', async () => {
      await expectApiError(h().client.chat.submit(SITE, { message: 'x'.repeat(21), email: EMAIL }), 'BadRequestError', 400, 'invalid payload');
    });
  });

  describe("listLimitPolicy 'clamp'", () => {
    const h = useHarness({ listLimitPolicy: 'clamp' });
    it('the client still refuses a limit outside 1–500 before sending (the server is never asked)', async () => {
      const before = h().sim.stats().requests;
      await expect(h().client.sessions.list(SITE, { limit: 501 })).rejects.toBeInstanceOf(RequestValidationError);
      expect(h().sim.stats().requests).toEqual(before);
    });
  });
});
