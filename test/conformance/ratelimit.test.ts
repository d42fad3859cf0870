import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/api';
import { EMAIL, SITE, useHarness } from './harness';

const h = useHarness({ rateLimit: 5 });

/** §8: 5 requests per second, counted per client IP and request path. */
describe('§8 rate limit', () => {
  it('the 6th request within a second on one path is 429; another path is unaffected', async () => {
    const c = h().client;
    for (let i = 0; i < 5; i++) await c.sessions.list(SITE);
    const err = await c.sessions.list(SITE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, error: 'too many requests. please try again later', retryAfterMs: 1_000 });
    await expect(c.chat.submit(SITE, { message: 'hi', email: EMAIL })).resolves.toMatchObject({ status: 'pending' });
  });

  it('status polls of different request ids are different paths', async () => {
    const c = h().client;
    const a = await c.chat.submit(SITE, { message: 'a', email: EMAIL });
    const b = await c.chat.submit(SITE, { message: 'b', email: EMAIL });
    for (let i = 0; i < 5; i++) await c.requests.get(SITE, a.request_id);
    await expect(c.requests.get(SITE, a.request_id)).rejects.toBeInstanceOf(RateLimitError);
    await expect(c.requests.get(SITE, b.request_id)).resolves.toMatchObject({ request_id: b.request_id });
  });

  it('after waiting one second the path is served again', async () => {
    const c = h().client;
    for (let i = 0; i < 6; i++) await c.tenants.limits('demo-tenant').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1_050));
    await expect(c.tenants.limits('demo-tenant')).resolves.toMatchObject({ tenant_id: 'demo-tenant' });
  });
});

/** §8 leaves "path" open: a server may count the route instead, so every status poll of a site shares one budget. */
describe('§8 rate limit, counted per route (rateLimitScope: route)', () => {
  const r = useHarness({ rateLimit: 5, rateLimitScope: 'route' });

  it('status polls of different request ids share one budget; another site has its own', async () => {
    const c = r().client;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await c.chat.submit(SITE, { message: `q${i}`, email: EMAIL })).request_id);
    for (const id of ids) await c.requests.get(SITE, id);
    const err = await c.requests.get(SITE, ids[0] as string).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, retryAfterMs: 1_000 });
    const other = r().clientWithKey('sk-sim-other-0000');
    const mine = await other.chat.submit('other-site', { message: 'hi', email: EMAIL });
    await expect(other.requests.get('other-site', mine.request_id)).resolves.toMatchObject({ request_id: mine.request_id });
  });

  it('paths without ids are counted as before', async () => {
    const c = r().client;
    for (let i = 0; i < 5; i++) await c.sessions.list(SITE);
    await expect(c.sessions.list(SITE)).rejects.toBeInstanceOf(RateLimitError);
    await expect(c.chat.submit(SITE, { message: 'hi', email: EMAIL })).resolves.toMatchObject({ status: 'pending' });
  });
});
