import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/api';
import { EMAIL, SITE, useHarness } from './harness';

const h = useHarness();

async function createSessions(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await h().client.chat.submit(SITE, { message: `q${i}`, session_id: `page-${i}`, email: EMAIL })).session_id);
  return ids;
}

const invalid = { status: 400, body: { error: 'invalid limit or offset' } };
const list = (query: string) => h().raw('GET', `/m2m/sites/${SITE}/sessions${query}`);

/** §4.1: limit default 50, maximum 500; offset default 0. Out-of-bounds values are 400 (simulator decision). */
describe('§4.1 pagination bounds', () => {
  it('defaults: limit 50, offset 0', async () => {
    expect((await h().client.sessions.list(SITE)).pagination).toEqual({ limit: 50, offset: 0, total: 0 });
  });

  it('limit 1 returns one session and the full total', async () => {
    await createSessions(3);
    const page = await h().client.sessions.list(SITE, { limit: 1 });
    expect(page.sessions).toHaveLength(1);
    expect(page.pagination).toEqual({ limit: 1, offset: 0, total: 3 });
  });

  it('limit 500 is accepted', async () => {
    expect((await h().client.sessions.list(SITE, { limit: 500 })).pagination.limit).toBe(500);
  });

  it('limit 501 is 400 (and the client refuses to send it)', async () => {
    await expect(h().client.sessions.list(SITE, { limit: 501 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(await list('?limit=501')).toEqual(invalid);
  });

  it('limit 0 is 400', async () => expect(await list('?limit=0')).toEqual(invalid));
  it('negative limit is 400', async () => expect(await list('?limit=-5')).toEqual(invalid));
  it('negative offset is 400', async () => expect(await list('?offset=-1')).toEqual(invalid));
  it('non-numeric offset is 400', async () => expect(await list('?offset=abc')).toEqual(invalid));
  it('non-numeric limit is 400', async () => expect(await list('?limit=ten')).toEqual(invalid));

  it('paging is complete when the collected count reaches pagination.total; order is newest first', async () => {
    const ids = await createSessions(12);
    const seen: string[] = [];
    for await (const s of h().client.sessions.iterate(SITE, { pageSize: 5 })) seen.push(s.id);
    expect(seen).toEqual([...ids].reverse());
  });

  it('the email filter narrows the list and the total', async () => {
    await createSessions(2);
    await h().client.chat.submit(SITE, { message: 'hi', email: 'someone.else@example.com' });
    const res = await h().client.sessions.list(SITE, { email: 'someone.else@example.com' });
    expect(res.pagination.total).toBe(1);
    expect(res.sessions[0]).toMatchObject({ email: 'someone.else@example.com', message_count: 1, visitor_id: '' });
  });
});
