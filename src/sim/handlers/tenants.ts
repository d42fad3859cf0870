import { ApiError } from '../constants';
import { errorReply, reply, type Reply, type RequestContext } from '../http/types';
import { MODEL_NAMES } from '../kb/models';
import { LimitsBody } from '../options';
import type { Simulator } from '../simulator';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from './sessions';

/**
 * `GET .../tenants/{tenant_id}/limits` (spec §4.7, body not shown): the key must belong to the tenant
 * in the path (another tenant's id is 401 `invalid_api_key`). The body describes what this
 * simulator enforces, with or without `models`, or is `{}` (`limitsBody`).
 */
export function tenantLimits(sim: Simulator, ctx: RequestContext): Reply {
  if (ctx.params.tenant !== ctx.tenant.id) return errorReply(401, ApiError.invalidApiKey);
  const o = sim.options;
  if (o.limitsBody === LimitsBody.empty) return reply(200, {});
  return reply(200, {
    tenant_id: ctx.tenant.id,
    plan: ctx.tenant.plan,
    api_access: true,
    rate_limit: { requests_per_second: o.rateLimit, scope: 'client_ip_and_path', window: o.rateLimitWindow, enabled: o.rateLimit > 0 },
    sessions: { list_default_limit: DEFAULT_LIST_LIMIT, list_max_limit: MAX_LIST_LIMIT },
    chat: { sync_timeout_seconds: Math.round((o.syncTimeoutMs * o.latencyScale) / 10) / 100, max_message_length: o.maxMessageLength },
    requests: { retention_seconds: Math.round(o.retentionMs / 1000) },
    ...(o.limitsBody === LimitsBody.full && { models: [...MODEL_NAMES] }),
    sites: [...ctx.tenant.siteIds],
  });
}
