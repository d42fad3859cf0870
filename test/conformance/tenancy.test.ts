import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sim';
import { completedRequest, EMAIL, expectApiError, SITE, useHarness } from './harness';

const h = useHarness();

/** §5.3–5.5: keys belong to a tenant; a tenant sees only its own sites, sessions and requests. */
describe('tenancy isolation', () => {
  it('tenant limits confirm the key belongs to the expected tenant', async () => {
    await expect(h().client.tenants.limits(DEMO.tenantId)).resolves.toMatchObject({ tenant_id: DEMO.tenantId, plan: 'level2' });
    await expectApiError(h().client.tenants.limits(DEMO.otherTenantId), 'AuthenticationError', 401, 'invalid_api_key');
  });

  it("a key cannot reach another tenant's site", async () => {
    const other = h().clientWithKey(DEMO.otherApiKey);
    await expectApiError(other.sessions.list(SITE), 'SiteNotFoundError', 404, 'site not found');
    await expectApiError(other.chat.submit(SITE, { message: 'hi', email: EMAIL }), 'SiteNotFoundError', 404, 'site not found');
    await expectApiError(h().client.sessions.list(DEMO.otherSiteId), 'SiteNotFoundError', 404, 'site not found');
  });

  it("a key cannot read or rate another tenant's requests", async () => {
    const ids = await completedRequest(h());
    const other = h().clientWithKey(DEMO.otherApiKey);
    await expectApiError(other.requests.get(SITE, ids.request_id), 'NotFoundError', 404, 'request not found');
    await expectApiError(other.feedback.submit(SITE, { ...ids, feedback: 'bad' }), 'NotFoundError', 404, 'request not found');
  });

  it("each tenant lists only its own sessions; a session id is scoped to its site", async () => {
    const other = h().clientWithKey(DEMO.otherApiKey);
    await h().client.chat.submit(SITE, { message: 'hi', session_id: 'shared-id', email: EMAIL });
    await other.chat.submit(DEMO.otherSiteId, { message: 'How long does shipping take?', session_id: 'shared-id', email: 'shopper@example.com' });
    expect((await h().client.sessions.list(SITE)).sessions.map((s) => s.email)).toEqual([EMAIL]);
    expect((await other.sessions.list(DEMO.otherSiteId)).sessions.map((s) => s.email)).toEqual(['shopper@example.com']);
    await h().client.chat.closeSession(SITE, 'shared-id');
    expect((await other.sessions.list(DEMO.otherSiteId)).sessions[0]?.closed_at).toBeNull();
  });

  it('a request of one site is not found on another site of the same tenant', async () => {
    const ids = await completedRequest(h());
    await expectApiError(h().client.requests.get('demo-empty-site', ids.request_id), 'NotFoundError', 404, 'request not found');
  });
});
