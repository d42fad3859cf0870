import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sim';
import { EMAIL, useSimulator } from './helpers';

const api = useSimulator();

interface ListBody {
  sessions: { id: string; email: string; visitor_id: string; message_count: number; created_at: string; updated_at: string; closed_at: string | null }[];
  pagination: { limit: number; offset: number; total: number };
}
const list = (query = '') => api().get<ListBody>(`/m2m/sites/demo-site/sessions${query}`);

async function createSessions(n: number, email = EMAIL): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(String((await api().chatAsync({ message: `question ${i}`, session_id: `s-${email}-${i}`, email })).body.session_id));
  return ids;
}

describe('session list (spec §4.1)', () => {
  it('is empty at first, with the default pagination', async () => {
    expect((await list()).body).toEqual({ sessions: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it('lists newest first with every field of spec §2', async () => {
    const ids = await createSessions(3);
    const res = await list();
    expect(res.body.sessions.map((s) => s.id)).toEqual([...ids].reverse());
    expect(res.body.sessions[0]).toEqual({
      id: ids[2], email: EMAIL, visitor_id: '', message_count: 1,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), updated_at: expect.any(String), closed_at: null,
    });
    expect(res.body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
  });

  it('counts user and assistant messages; updated_at follows the last message', async () => {
    const first = await api().completed({ message: 'How do I reset my password?', email: EMAIL });
    await api().completed({ message: 'Where is my data stored?', session_id: first.session_id });
    const [s] = (await list()).body.sessions;
    expect(s?.message_count).toBe(4);
    expect(Date.parse(s?.updated_at ?? '')).toBeGreaterThan(Date.parse(s?.created_at ?? ''));
  });

  it('does not count the assistant message of a failed request', async () => {
    api().sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    await api().completed({ message: 'hi', email: EMAIL });
    expect((await list()).body.sessions[0]?.message_count).toBe(1);
  });

  it('filters by email (case-insensitive) with the filtered total', async () => {
    await createSessions(2, 'ann@example.com');
    await createSessions(3, 'bob@example.com');
    const res = await list('?email=ANN@example.com');
    expect(res.body.sessions.map((s) => s.email)).toEqual(['ann@example.com', 'ann@example.com']);
    expect(res.body.pagination.total).toBe(2);
  });

  it('pages with limit and offset until total is reached', async () => {
    const ids = await createSessions(7);
    const seen: string[] = [];
    for (let offset = 0; ; offset += 3) {
      const page = await list(`?limit=3&offset=${offset}`);
      expect(page.body.pagination).toEqual({ limit: 3, offset, total: 7 });
      seen.push(...page.body.sessions.map((s) => s.id));
      if (seen.length >= page.body.pagination.total) break;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('an offset past the end is an empty page, not an error', async () => {
    await createSessions(2);
    const res = await list('?offset=10');
    expect(res.body).toEqual({ sessions: [], pagination: { limit: 50, offset: 10, total: 2 } });
  });

  for (const ok of ['limit=1', 'limit=500', 'limit=', 'offset=0', 'limit=%2B5']) {
    it(`accepts ${ok}`, async () => expect((await list(`?${ok}`)).status).toBe(200));
  }
  for (const bad of ['limit=0', 'limit=501', 'limit=-1', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=abc', 'offset=1e3']) {
    it(`400 invalid limit or offset: ${bad}`, async () => {
      expect(await list(`?${bad}`)).toMatchObject({ status: 400, body: { error: ApiError.invalidLimitOrOffset } });
    });
  }
});

describe('session close (spec §4.2, §3 Session)', () => {
  const close = (body: unknown, raw?: string) => api().call('POST', '/m2m/sites/demo-site/chat/session/close', body, raw === undefined ? {} : { raw });

  it('active → closed sets closed_at; closing again is 200 ok and keeps the first closed_at', async () => {
    const [id] = await createSessions(1);
    expect(await close({ session_id: id })).toMatchObject({ status: 200, body: { status: 'ok' } });
    const closedAt = (await list()).body.sessions[0]?.closed_at;
    expect(closedAt).toEqual(expect.any(String));
    api().sim.advanceTime(5_000);
    expect(await close({ session_id: id })).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await list()).body.sessions[0]?.closed_at).toBe(closedAt);
  });

  it('an unknown session is 404 session not found (decision)', async () => {
    expect(await close({ session_id: 'never-seen' })).toMatchObject({ status: 404, body: { error: ApiError.sessionNotFound } });
  });

  for (const [what, body, raw] of [
    ['missing', {}, undefined], ['empty', { session_id: '' }, undefined], ['not a string', { session_id: 12 }, undefined], ['invalid JSON', undefined, '{'],
  ] as const) {
    it(`400 session_id is required: ${what}`, async () => {
      expect(await close(body, raw)).toMatchObject({ status: 400, body: { error: ApiError.sessionIdRequired } });
    });
  }

  it('counts sessions and closed sessions in stats', async () => {
    const ids = await createSessions(3);
    await close({ session_id: ids[0] });
    await close({ session_id: ids[0] });
    expect(api().sim.stats().sessions).toEqual({ total: 3, closed: 1 });
  });
});
