import { isReply, resolveSite } from '../auth';
import { ApiError } from '../constants';
import { errorReply, reply, type Reply, type RequestContext } from '../http/types';
import type { Simulator } from '../simulator';
import { wellFormedId } from '../state/ids';
import { RequestStatus } from '../state/requests';
import { confidenceFields } from './chat';

/**
 * `GET .../chat/requests/{requestId}` (spec §4.5). A request id that is not a UUID is 400 (any id with `idFormat` 'opaque'); an unknown
 * site, another tenant's site, an unknown request, another site's request or one past retention
 * is 404 `request not found`, and so is a new one under the `newRequestNotFoundMs` fault. Sync requests are visible
 * here too.
 */
export function requestStatus(sim: Simulator, ctx: RequestContext): Reply {
  const { site: siteId, requestId } = ctx.params;
  if (!siteId || !requestId || !wellFormedId(sim.options.idFormat, requestId)) return errorReply(400, ApiError.statusParamsRequired);
  const site = resolveSite(sim.registry, ctx.tenant, siteId, ApiError.requestNotFound);
  if (isReply(site)) return site;
  const now = sim.tick();
  const r = sim.requests.get(requestId, now, sim.options.retentionMs);
  if (!r || r.siteId !== site.id) return errorReply(404, ApiError.requestNotFound);
  if (now - r.createdAt < sim.faults.newRequestNotFoundMs(ctx.endpoint)) {
    sim.stats.counters.faults.errors++;
    return errorReply(404, ApiError.requestNotFound);
  }
  const body: Record<string, unknown> = { session_id: r.sessionId, request_id: r.id, status: r.status };
  if (r.status === RequestStatus.completed) {
    body.answer = r.result.answer;
    if (sim.options.statusConfidence) Object.assign(body, confidenceFields(r));
  } else if (r.status === RequestStatus.failed) body.error = r.error ?? ApiError.ragFailure;
  return reply(200, body);
}
