import { isReply, resolveSite } from '../auth';
import { ApiError } from '../constants';
import { bodyObject, errorReply, reply, type Reply, type RequestContext } from '../http/types';
import { CloseUnknownSession, LimitPolicy } from '../options';
import type { Simulator } from '../simulator';
import { sessionJson } from '../state/sessions';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

/** Absent or empty → undefined; an optionally signed integer → number; anything else → NaN. */
function intParam(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  return /^[+-]?\d{1,15}$/.test(raw) ? Number(raw) : NaN;
}

/** Validated `limit` and `offset`, or undefined for 400 `invalid limit or offset`. */
export function pageParams(query: URLSearchParams, policy: LimitPolicy): { limit: number; offset: number } | undefined {
  const rawLimit = intParam(query.get('limit'));
  const rawOffset = intParam(query.get('offset'));
  if (Number.isNaN(rawLimit) || Number.isNaN(rawOffset)) return undefined;
  let limit = rawLimit ?? DEFAULT_LIST_LIMIT;
  let offset = rawOffset ?? 0;
  if (policy === LimitPolicy.clamp) {
    limit = limit < 1 ? DEFAULT_LIST_LIMIT : Math.min(limit, MAX_LIST_LIMIT);
    offset = Math.max(0, offset);
  } else if (limit < 1 || limit > MAX_LIST_LIMIT || offset < 0) return undefined;
  return { limit, offset };
}

/**
 * `GET .../sessions` (spec §4.1): in `sessionOrder` (default newest first), optional case-insensitive
 * `email` filter, `limit` 1..500 (default 50), `offset` >= 0 (default 0).
 */
export function listSessions(sim: Simulator, ctx: RequestContext): Reply {
  const site = resolveSite(sim.registry, ctx.tenant, ctx.params.site, ApiError.siteNotFound);
  if (isReply(site)) return site;
  const query = new URLSearchParams(ctx.search);
  const page = pageParams(query, sim.options.listLimitPolicy);
  if (!page) return errorReply(400, ApiError.invalidLimitOrOffset);
  sim.tick();
  const email = query.get('email') || undefined;
  const { sessions, total } = sim.sessions.list(site.id, email, page.limit, page.offset, sim.options.sessionOrder);
  return reply(200, { sessions: sessions.map((s) => sessionJson(s, sim.options.timestamps)), pagination: { limit: page.limit, offset: page.offset, total } });
}

/**
 * `POST .../chat/session/close` (spec §4.2): sets `closed_at` once; closing again is 200 `ok`.
 * An unknown session is 404 `session not found` (or 200 `ok` with closeUnknownSession 'ok').
 */
export function closeSession(sim: Simulator, ctx: RequestContext): Reply {
  const site = resolveSite(sim.registry, ctx.tenant, ctx.params.site, ApiError.siteNotFound);
  if (isReply(site)) return site;
  const sessionId = bodyObject(ctx.body)?.session_id;
  if (typeof sessionId !== 'string' || sessionId.length === 0) return errorReply(400, ApiError.sessionIdRequired);
  const now = sim.tick();
  const session = sim.sessions.get(site.id, sessionId);
  if (!session) {
    return sim.options.closeUnknownSession === CloseUnknownSession.ok ? reply(200, { status: 'ok' }) : errorReply(404, ApiError.sessionNotFound);
  }
  sim.sessions.close(session, now);
  return reply(200, { status: 'ok' });
}
