import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO, DEMO_API_KEY, defaultFixturesPath, loadFixtures, startSimulator, type FixturesInput } from '../../../src/sim';
import { SimClient } from './helpers';

const minimal = (documents: unknown[] = []): FixturesInput => ({
  tenants: [{ id: 't', plan: 'level3', keys: [{ key: 'k' }], sites: [{ id: 's', documents: documents as never }] }],
});

describe('fixtures', () => {
  it('the demo constants match datasets/knowledge-base.json', () => {
    const fx = loadFixtures();
    const demo = fx.tenants.find((t) => t.id === DEMO.tenantId);
    expect(demo?.plan).toBe('level2');
    expect(demo?.keys.map((k) => k.key)).toEqual(expect.arrayContaining([DEMO_API_KEY, DEMO.expiredKey, DEMO.revokedKey]));
    expect(demo?.sites[0]?.id).toBe(DEMO.siteId);
    expect(demo?.sites[0]?.documents.length).toBeGreaterThanOrEqual(30);
    expect(fx.tenants.find((t) => t.id === DEMO.otherTenantId)?.keys[0]?.key).toBe(DEMO.otherApiKey);
    expect(fx.tenants.find((t) => t.id === DEMO.level1TenantId)).toMatchObject({ plan: 'level1', keys: [{ key: DEMO.level1ApiKey }] });
  });

  it('loads from a path and from an object', () => {
    expect(loadFixtures(defaultFixturesPath())).toEqual(loadFixtures(JSON.parse(readFileSync(defaultFixturesPath(), 'utf8')) as FixturesInput));
  });

  it('names the field at fault', () => {
    expect(() => loadFixtures({ tenants: [{ id: 't', plan: 'gold', keys: [], sites: [] }] } as never)).toThrow(/tenants\[0\]\.plan/);
    expect(() => loadFixtures(minimal([{ title: 'x' }]))).toThrow(/tenants\[0\]\.sites\[0\]\.documents\[0\]\.content/);
    expect(() => loadFixtures({ tenants: [{ id: 't', plan: 'level2', keys: [{ key: 'k', expiresAt: 'soon' }] }] } as never)).toThrow(/keys\[0\]\.expiresAt/);
    expect(() => loadFixtures({ tenants: [{ id: 't', plan: 'level2', sites: [{ id: 's', defaultModel: 'gpt-99' }] }] } as never)).toThrow(/defaultModel/);
    expect(() => loadFixtures('/no/such/file.json')).toThrow(/fixtures \/no\/such\/file\.json/);
  });

  it('rejects duplicate keys and site ids across tenants', () => {
    const dup: FixturesInput = { tenants: [
      { id: 'a', plan: 'level2', keys: [{ key: 'k' }], sites: [{ id: 's' }] },
      { id: 'b', plan: 'level2', keys: [{ key: 'k' }], sites: [] },
    ] };
    expect(() => loadFixtures(dup)).toThrow(/duplicate key `k`/);
  });

  it('a simulator runs on custom fixtures given as an object', async () => {
    const sim = await startSimulator({ fixtures: minimal([{ title: 'Opening hours', content: 'We are open from 9 to 5 on weekdays.' }]), latencyScale: 0.001 });
    const api = new SimClient(sim);
    try {
      const res = await api.chatSync({ message: 'What are your opening hours?', email: 'a@b.c' }, 's', { key: 'k' });
      expect(res.body.answer).toBe('We are open from 9 to 5 on weekdays.');
      expect((await api.get('/m2m/sites/s/sessions')).status).toBe(401); // the demo key is not in these fixtures
    } finally {
      await sim.close();
    }
  });
});
