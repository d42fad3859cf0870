import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sim';
import { RateLimiter } from '../../../src/sim/ratelimit';
import { useSimulator } from './helpers';

const api = useSimulator({ rateLimit: 5, trustForwardedFor: true });

const sessions = (ip: string, query = '') => api().get(`/m2m/sites/demo-site/sessions${query}`, { ip });

describe('rate limit over HTTP (spec §8: 5 requests/s per client IP and request path)', () => {
  it('the 6th request within a second on one path is 429; another path is unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await sessions('10.0.0.1')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await sessions('10.0.0.1');
    expect(limited.body).toEqual({ error: ApiError.tooManyRequests });
    expect(limited.headers['retry-after']).toBe('1');
    expect((await api().get('/m2m/tenants/demo-tenant/limits', { ip: '10.0.0.1' })).status).toBe(200);
  });

  it('the query string is not part of the path; another client IP has its own budget', async () => {
    for (let i = 0; i < 5; i++) expect((await sessions('10.0.0.2', `?offset=${i}`)).status).toBe(200);
    expect((await sessions('10.0.0.2', '?offset=9')).status).toBe(429);
    expect((await sessions('10.0.0.3')).status).toBe(200);
  });

  it('status polls of different request ids are different paths', async () => {
    const ids = ['0b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e', '1b5c1f0e-8a4d-4c51-9a3e-7f1d2b3c4d5e'];
    for (const id of ids) {
      for (let i = 0; i < 5; i++) expect((await api().status(id, 'demo-site', { ip: '10.0.0.4' })).status).toBe(404);
    }
    expect((await api().status(ids[0] as string, 'demo-site', { ip: '10.0.0.4' })).status).toBe(429);
  });

  it('serves the client again once the window has reset', async () => {
    for (let i = 0; i < 6; i++) await sessions('10.0.0.5');
    expect((await sessions('10.0.0.5')).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await sessions('10.0.0.5')).status).toBe(200);
  });

  it('counts 429s in stats, with the peak rate per path', async () => {
    for (let i = 0; i < 8; i++) await sessions('10.0.0.6');
    const stats = api().sim.stats();
    expect(stats.rateLimited).toBe(3);
    expect(stats.requests['sessions.list']).toEqual({ 200: 5, 429: 3 });
    expect(stats.peakRatePerPath['sessions.list']).toBe(8);
  });
});

describe('RateLimiter', () => {
  it('fixed window: N per window that opens at the first request', () => {
    const rl = new RateLimiter(2, 'fixed');
    expect([rl.allow('k', 0), rl.allow('k', 10), rl.allow('k', 999)]).toEqual([true, true, false]);
    expect([rl.allow('k', 1000), rl.allow('k', 1500), rl.allow('k', 1600)]).toEqual([true, true, false]);
  });

  it('sliding window: at most N in any trailing second', () => {
    const rl = new RateLimiter(2, 'sliding');
    expect([rl.allow('k', 0), rl.allow('k', 900), rl.allow('k', 1000)]).toEqual([true, true, true]);
    expect(rl.allow('k', 1500)).toBe(false);
    expect(rl.allow('k', 1901)).toBe(true);
  });

  it('0 disables it; keys are independent', () => {
    const off = new RateLimiter(0, 'fixed');
    expect(Array.from({ length: 100 }, () => off.allow('k', 0)).every(Boolean)).toBe(true);
    const rl = new RateLimiter(1, 'fixed');
    expect([rl.allow('a', 0), rl.allow('b', 0), rl.allow('a', 1)]).toEqual([true, true, false]);
  });
});
