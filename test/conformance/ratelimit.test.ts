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
