import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check';
import { checkAction } from '../../src/cli/commands/check/action';
import type { CheckFlags } from '../../src/cli/commands/check/action';
import type { Logger } from '../../src/cli/logger';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';

interface Captured {
  code: number;
  out: string;
  err: string;
  report?: CheckReport;
}

function capture(): { log: Logger; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const push = (into: string[], prefix = '') => (line: string) => void into.push(prefix + line);
  return { log: { info: push(err), warn: push(err, 'warning: '), error: push(err, 'error: '), debug: () => undefined, out: push(out) }, out, err };
}

let sim: SimulatorHandle;
async function check(env: Record<string, string | undefined>, flags: CheckFlags = {}): Promise<Captured> {
  const c = capture();
  const code = await checkAction(flags, { env: { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, ...env }, log: c.log });
  const json = await (async () => {
    const cj = capture();
    await checkAction({ ...flags, json: true }, { env: { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, ...env }, log: cj.log });
    return cj.out.length > 0 ? (JSON.parse(cj.out.join('\n')) as CheckReport) : undefined;
  })();
  return { code, out: c.out.join('\n'), err: c.err.join('\n'), report: json };
}

const demo = { site: DEMO.siteId, tenant: DEMO.tenantId };

describe('sitechat check against the simulator over HTTP', () => {
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, rateLimit: 0 });
  });
  afterAll(async () => sim?.close());
  beforeEach(() => {
    sim.setFaults({});
  });

  it('all well: exit 0, both checks ok', async () => {
    const r = await check({}, demo);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/✓ tenant check .*key is valid for tenant "demo-tenant"/);
    expect(r.out).toMatch(/✓ site check .*site "demo-site" is reachable/);
    expect(r.out).toMatch(/All good\./);
    expect(r.report).toMatchObject({ ok: true, simulator: false, checks: [{ name: 'tenant', outcome: 'ok' }, { name: 'site', outcome: 'ok' }] });
  });

  it('site and tenant come from SITECHAT_SITE_ID / SITECHAT_TENANT_ID too', async () => {
    const r = await check({ SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_TENANT_ID: DEMO.tenantId });
    expect(r.report?.checks.map((c) => c.outcome)).toEqual(['ok', 'ok']);
  });

  it('no tenant: the tenant check is skipped with a note, the site check alone decides', async () => {
    const r = await check({}, { site: DEMO.siteId });
    expect(r.code).toBe(0);
    expect(r.report?.checks.map((c) => [c.name, c.outcome])).toEqual([['tenant', 'skipped'], ['site', 'ok']]);
    expect(r.out).toMatch(/– tenant check .*skipped: no tenant given/);
    expect(r.out).toContain('(pass --tenant ID or set SITECHAT_TENANT_ID)');
  });

  it.each([
    ['expired', DEMO.expiredKey],
    ['revoked', DEMO.revokedKey],
    ['unknown', 'sk-nobody-knows-this'],
  ])('401 with an %s key: exit 3, points at SITECHAT_API_KEY', async (_what, key) => {
    const r = await check({ SITECHAT_API_KEY: key }, demo);
    expect(r.code).toBe(3);
    expect(r.report?.checks.map((c) => [c.outcome, c.status])).toEqual([['auth', 401], ['auth', 401]]);
    // The hint's wording is pinned in test/unit/check/diagnose.test.ts; here, that the site check prints it for this site.
    expect(r.out).toMatch(/✗ site check .*\(401 invalid_api_key\): check SITECHAT_API_KEY /);
    expect(r.out).toContain('site "demo-site"');
  });

  it('401 for a tenant id that is not the key\'s tenant', async () => {
    const r = await check({}, { ...demo, tenant: DEMO.otherTenantId });
    expect(r.code).toBe(3);
    expect(r.report?.checks[0]).toMatchObject({ outcome: 'auth', status: 401 });
    expect(r.out).toMatch(/tenant "other-tenant" .* is the key's own tenant/);
  });

  it('403 with a Level 1 key names the Level 2 and Level 3 plans', async () => {
    const r = await check({ SITECHAT_API_KEY: DEMO.level1ApiKey }, { site: DEMO.level1SiteId, tenant: DEMO.level1TenantId });
    expect(r.code).toBe(3);
    expect(r.report?.checks.map((c) => c.outcome)).toEqual(['plan', 'plan']);
    expect(r.out).toMatch(/403 api_access_not_available_on_plan: .*Level 2 and Level 3 plans/);
  });

  it.each([
    ["another tenant's site", DEMO.otherSiteId],
    ['an unknown site', 'no-such-site'],
  ])('404 for %s', async (_what, site) => {
    const r = await check({}, { ...demo, site });
    expect(r.code).toBe(3);
    expect(r.report?.checks.map((c) => c.outcome)).toEqual(['ok', 'not-found']);
    expect(r.out).toContain(`404 site not found: site "${site}" does not exist`);
  });

  it('429: says to wait a second and gives the limit', async () => {
    sim.setFaults({ '*': { rateLimitBurst: 2 } });
    const c = capture();
    const code = await checkAction(demo, { env: { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey }, log: c.log });
    expect(code).toBe(3);
    // The hint's wording is pinned in test/unit/check/diagnose.test.ts.
    expect(c.out.join('\n')).toMatch(/429 too many requests\. .*: rate limited\. Wait a second /);
    expect(c.out.join('\n')).toContain('5 requests per second');
  });

  it('500: the service side', async () => {
    sim.setFaults({ '*': { failRate: 1 } });
    const r = await check({}, demo);
    expect(r.code).toBe(3);
    expect(r.report?.checks.map((c) => [c.outcome, c.status])).toEqual([['server-error', 500], ['server-error', 500]]);
    expect(r.out).toMatch(/500 failed to call rag service: the service failed on its side/);
  });

  it('network: a closed port is "connection refused", distinct from HTTP errors', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const r = await check({ SITECHAT_BASE_URL: `http://127.0.0.1:${port}/api/v1` }, demo);
    expect(r.code).toBe(3);
    expect(r.report?.checks.map((c) => [c.outcome, c.code])).toEqual([['refused', 'ECONNREFUSED'], ['refused', 'ECONNREFUSED']]);
    expect(r.out).toContain(`connection refused by 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('config: a base URL without /api/v1, or no key, is a usage error (exit 2) with its diagnosis', async () => {
    const noPath = await check({ SITECHAT_BASE_URL: sim.origin }, demo);
    expect(noPath.code).toBe(2);
    expect(noPath.report?.checks).toEqual([expect.objectContaining({ name: 'config', outcome: 'config' })]);
    expect(noPath.out).toMatch(/SITECHAT_BASE_URL must end with \/api\/v1/);
    const noKey = await check({ SITECHAT_API_KEY: undefined }, demo);
    expect(noKey.code).toBe(2);
    expect(noKey.out).toMatch(/SITECHAT_API_KEY is not set/);
  });

  it('no SITECHAT_BASE_URL: checks the embedded simulator and says so', async () => {
    const c = capture();
    const code = await checkAction({}, { env: {}, log: c.log });
    expect(code).toBe(0);
    expect(c.err.join('\n')).toMatch(/no SITECHAT_BASE_URL: checking the embedded simulator/);
    expect(c.out.join('\n')).toMatch(/\(the embedded simulator: SITECHAT_BASE_URL is not set\)/);
  });

  it('--site a,b (as `sitechat run` takes it) checks every site; one unknown site fails the check', async () => {
    const both = await check({}, { site: `${DEMO.siteId},no-such-site`, tenant: DEMO.tenantId });
    expect(both.code).toBe(3);
    expect(both.report?.checks.map((c) => [c.name, c.target, c.outcome])).toEqual([
      ['tenant', DEMO.tenantId, 'ok'], ['site', DEMO.siteId, 'ok'], ['site', 'no-such-site', 'not-found'],
    ]);
    expect(both.out).toMatch(/✗ site check .*no-such-site/);
    // A malformed list is a usage error naming where it came from, before any request.
    const bad = await check({ SITECHAT_SITE_ID: `${DEMO.siteId},,x` });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/SITECHAT_SITE_ID .*site 2 of 3 is empty/);
  });

  it('usage: a bad --timeout, or nothing to check, exit 2', async () => {
    expect((await check({}, { ...demo, timeout: 'soon' })).code).toBe(2);
    expect((await check({}, {})).code).toBe(2);
  });

  it('the key never appears in the output', async () => {
    const r = await check({ SITECHAT_API_KEY: DEMO.revokedKey }, demo);
    expect(`${r.out}\n${r.err}\n${JSON.stringify(r.report)}`).not.toContain(DEMO.revokedKey);
  });
});
