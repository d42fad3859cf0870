import { describe, expect, it } from 'vitest';
import { ApiError, DEMO, PLAN_MESSAGE } from '../../../src/sim';
import { EMAIL, useSimulator } from './helpers';

const api = useSimulator();

/** One call per endpoint, each valid apart from the key. */
const endpoints: [string, 'GET' | 'POST', string, unknown][] = [
  ['sessions.list', 'GET', '/m2m/sites/demo-site/sessions', undefined],
  ['sessions.close', 'POST', '/m2m/sites/demo-site/chat/session/close', { session_id: 's-1' }],
  ['chat.sync', 'POST', '/m2m/sites/demo-site/chat', { message: 'hi', email: EMAIL }],
  ['chat.async', 'POST', '/m2m/sites/demo-site/chat/async', { message: 'hi', email: EMAIL }],
  ['requests.status', 'GET', '/m2m/sites/demo-site/chat/requests/00000000-0000-4000-8000-000000000000', undefined],
  ['feedback.submit', 'POST', '/m2m/sites/demo-site/chat/feedback', { session_id: 'x', request_id: 'y', feedback: 'good' }],
  ['tenants.limits', 'GET', '/m2m/tenants/demo-tenant/limits', undefined],
  ['documents.create', 'POST', '/m2m/sites/demo-site/documents', { title: 't', content: 'c' }],
];

describe('authentication (spec §5)', () => {
  const rejected: [string, string | null][] = [
    ['missing', null],
    ['empty', ''],
    ['unknown', 'sk-not-a-key'],
    ['expired', DEMO.expiredKey],
    ['revoked', DEMO.revokedKey],
  ];
  for (const [name, method, path, body] of endpoints) {
    for (const [what, key] of rejected) {
      it(`${name}: ${what} key → 401 invalid_api_key`, async () => {
        const res = await api().call(method, path, body, { key });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: ApiError.invalidApiKey });
      });
    }
    it(`${name}: level1 plan → 403 with a message naming Level 2 and Level 3`, async () => {
      const res = await api().call(method, path.replace('demo-site', DEMO.level1SiteId).replace('demo-tenant', DEMO.level1TenantId), body, { key: DEMO.level1ApiKey });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: ApiError.planLacksApiAccess, message: PLAN_MESSAGE });
      expect(PLAN_MESSAGE).toMatch(/Level 2 and Level 3/);
    });
  }

  it('accepts a key whose expiry is in the future', async () => {
    const res = await api().get('/m2m/sites/demo-site/sessions', { key: 'sk-sim-demo-2030' });
    expect(res.status).toBe(200);
  });

  it('a key expires when simulated time passes its expiresAt', async () => {
    api().sim.advanceTime(Date.parse('2030-01-02T00:00:00Z') - Date.now());
    expect((await api().get('/m2m/sites/demo-site/sessions', { key: 'sk-sim-demo-2030' })).status).toBe(401);
    expect((await api().get('/m2m/sites/demo-site/sessions')).status).toBe(200);
  });
});

describe('tenancy', () => {
  it('another tenant’s site is 404 site not found (list, close, chat, documents)', async () => {
    const site = DEMO.otherSiteId;
    for (const [method, path, body] of [
      ['GET', `/m2m/sites/${site}/sessions`, undefined],
      ['POST', `/m2m/sites/${site}/chat/session/close`, { session_id: 's' }],
      ['POST', `/m2m/sites/${site}/chat`, { message: 'hi', email: EMAIL }],
      ['POST', `/m2m/sites/${site}/chat/async`, { message: 'hi', email: EMAIL }],
      ['POST', `/m2m/sites/${site}/documents`, { title: 't', content: 'c' }],
    ] as const) {
      const res = await api().call(method, path, body);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: ApiError.siteNotFound });
    }
  });

  it('an unknown site is 404 site not found', async () => {
    const res = await api().get('/m2m/sites/no-such-site/sessions');
    expect(res).toMatchObject({ status: 404, body: { error: ApiError.siteNotFound } });
  });

  it('status and feedback on another tenant’s site are 404 request not found', async () => {
    const own = await api().completed({ message: 'How do I reset my password?', email: EMAIL });
    const status = await api().status(own.request_id, DEMO.siteId, { key: DEMO.otherApiKey });
    expect(status).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
    const fb = await api().post(`/m2m/sites/${DEMO.siteId}/chat/feedback`, { session_id: own.session_id, request_id: own.request_id, feedback: 'good' }, { key: DEMO.otherApiKey });
    expect(fb).toMatchObject({ status: 404, body: { error: ApiError.requestNotFound } });
  });

  it('tenant limits with another tenant’s id is 401 (the key does not belong to it)', async () => {
    const res = await api().get(`/m2m/tenants/${DEMO.otherTenantId}/limits`);
    expect(res).toMatchObject({ status: 401, body: { error: ApiError.invalidApiKey } });
  });

  it('the other tenant sees only its own sessions', async () => {
    await api().chatAsync({ message: 'hello', email: EMAIL });
    await api().chatAsync({ message: 'How long does shipping take?', email: EMAIL }, DEMO.otherSiteId, { key: DEMO.otherApiKey });
    const mine = await api().get<{ pagination: { total: number } }>('/m2m/sites/demo-site/sessions');
    const theirs = await api().get<{ pagination: { total: number } }>(`/m2m/sites/${DEMO.otherSiteId}/sessions`, { key: DEMO.otherApiKey });
    expect(mine.body.pagination.total).toBe(1);
    expect(theirs.body.pagination.total).toBe(1);
  });
});
