import { DEMO } from './constants';
import { loadFixtures, type Fixtures } from './fixtures';

/**
 * The demo fixtures with more sites of the demo tenant, each a copy of `demo-site` (same documents, same answers):
 * what multi-site runs, their tests and their benchmark ask. The demo key reaches every one of them.
 */
export function demoFixturesWithSites(siteIds: readonly string[], base: Fixtures = loadFixtures()): Fixtures {
  const tenants = base.tenants.map((tenant) => {
    if (tenant.id !== DEMO.tenantId) return tenant;
    const demo = tenant.sites.find((s) => s.id === DEMO.siteId);
    if (!demo) throw new Error(`fixtures: tenant ${DEMO.tenantId} has no site ${DEMO.siteId} to copy`);
    const known = new Set(tenant.sites.map((s) => s.id));
    const copies = siteIds.filter((id) => !known.has(id)).map((id) => ({ ...demo, id, name: `${demo.name ?? id} (copy ${id})` }));
    return { ...tenant, sites: [...tenant.sites, ...copies] };
  });
  return { tenants };
}
