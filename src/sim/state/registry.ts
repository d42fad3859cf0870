import { Plan, type Fixtures } from '../fixtures';
import { SiteKnowledge } from '../kb/knowledge';
import { DEFAULT_MODEL } from '../kb/models';

export interface TenantRecord {
  id: string;
  plan: Plan;
  siteIds: string[];
}

export interface KeyRecord {
  key: string;
  tenantId: string;
  /** Epoch ms, or null for a key without expiry. */
  expiresAt: number | null;
  revoked: boolean;
}

export interface SiteRecord {
  id: string;
  tenantId: string;
  defaultModel: string;
  knowledge: SiteKnowledge;
}

/** Tenants, keys and sites from the fixtures, each site with its indexed documents. */
export class Registry {
  private readonly tenants = new Map<string, TenantRecord>();
  private readonly keys = new Map<string, KeyRecord>();
  private readonly sites = new Map<string, SiteRecord>();

  constructor(fixtures: Fixtures) {
    for (const t of fixtures.tenants) {
      this.tenants.set(t.id, { id: t.id, plan: t.plan, siteIds: t.sites.map((s) => s.id) });
      for (const k of t.keys) {
        const expiresAt = k.expiresAt === undefined ? null : Date.parse(k.expiresAt);
        this.keys.set(k.key, { key: k.key, tenantId: t.id, expiresAt, revoked: k.revoked ?? false });
      }
      for (const s of t.sites) {
        const knowledge = new SiteKnowledge(s.id);
        for (const d of s.documents) knowledge.add(d);
        this.sites.set(s.id, { id: s.id, tenantId: t.id, defaultModel: s.defaultModel ?? DEFAULT_MODEL, knowledge });
      }
    }
  }

  key(value: string): KeyRecord | undefined {
    return this.keys.get(value);
  }

  tenant(id: string): TenantRecord | undefined {
    return this.tenants.get(id);
  }

  site(id: string): SiteRecord | undefined {
    return this.sites.get(id);
  }

  static hasApiAccess(plan: Plan): boolean {
    return plan === Plan.level2 || plan === Plan.level3;
  }
}
