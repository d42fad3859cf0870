import { ApiError, PLAN_MESSAGE } from './constants';
import { errorReply, type Reply } from './http/types';
import { Registry, type SiteRecord, type TenantRecord } from './state/registry';

export type AuthResult = { ok: true; tenant: TenantRecord } | { ok: false; reply: Reply };

/**
 * Spec §5: a missing, unknown, expired or revoked key is 401 `invalid_api_key`; a valid key whose
 * plan lacks API access (level1) is 403 with a `message` naming the Level 2 and Level 3 plans.
 * Any non-empty string is a well-formed key; it is valid only if the fixtures list it.
 */
export function authenticate(registry: Registry, header: string | string[] | undefined, now: number): AuthResult {
  const value = Array.isArray(header) ? header[0] : header;
  const key = value ? registry.key(value) : undefined;
  const tenant = key ? registry.tenant(key.tenantId) : undefined;
  if (!key || !tenant || key.revoked || (key.expiresAt !== null && key.expiresAt <= now)) {
    return { ok: false, reply: errorReply(401, ApiError.invalidApiKey) };
  }
  if (!Registry.hasApiAccess(tenant.plan)) {
    return { ok: false, reply: errorReply(403, ApiError.planLacksApiAccess, { message: PLAN_MESSAGE }) };
  }
  return { ok: true, tenant };
}

/** The site named in the path if it belongs to the key's tenant; otherwise a 404 with `notFoundError`. */
export function resolveSite(registry: Registry, tenant: TenantRecord, siteId: string | undefined, notFoundError: string): SiteRecord | Reply {
  const site = siteId ? registry.site(siteId) : undefined;
  return site && site.tenantId === tenant.id ? site : errorReply(404, notFoundError);
}

export function isReply(value: object): value is Reply {
  return 'status' in value && 'body' in value;
}
