import { isReply, resolveSite } from '../auth';
import { ApiError } from '../constants';
import { bodyObject, errorReply, reply, type Reply, type RequestContext } from '../http/types';
import { FeedbackResubmit, FeedbackUuidCheck, IdFormat } from '../options';
import { isUuid } from '../prng';
import type { Simulator } from '../simulator';
import { stamp } from '../state/clock';
import { RequestStatus, type FeedbackValue } from '../state/requests';

interface FeedbackBody {
  sessionId: string;
  requestId: string;
  value: FeedbackValue;
}

function parse(raw: unknown, uuidCheck: FeedbackUuidCheck): FeedbackBody | undefined {
  const body = bodyObject(raw);
  const sessionId = body?.session_id;
  const requestId = body?.request_id;
  const value = body?.feedback;
  if (typeof sessionId !== 'string' || typeof requestId !== 'string' || !sessionId || !requestId) return undefined;
  if (uuidCheck !== FeedbackUuidCheck.none && !isUuid(requestId)) return undefined;
  if (uuidCheck === FeedbackUuidCheck.both && !isUuid(sessionId)) return undefined;
  if (value !== 'good' && value !== 'bad') return undefined;
  return { sessionId, requestId, value };
}

/**
 * `POST .../chat/feedback` (spec §4.6, §3 Feedback). Only completed requests take feedback (409
 * otherwise). The same value again keeps (and returns) the original time, or omits it when
 * `feedbackResubmit` is 'omit'; a different value replaces it with the current time.
 */
export function submitFeedback(sim: Simulator, ctx: RequestContext): Reply {
  // A server that hands out ids of another form cannot ask for UUIDs.
  const body = parse(ctx.body, sim.options.idFormat === IdFormat.uuid ? sim.options.feedbackUuidCheck : FeedbackUuidCheck.none);
  if (!body) return errorReply(400, ApiError.invalidFeedback);
  const site = resolveSite(sim.registry, ctx.tenant, ctx.params.site, ApiError.requestNotFound);
  if (isReply(site)) return site;
  const now = sim.tick();
  const r = sim.requests.get(body.requestId, now, sim.options.retentionMs);
  if (!r || r.siteId !== site.id || r.sessionId !== body.sessionId) return errorReply(404, ApiError.requestNotFound);
  if (r.status !== RequestStatus.completed) return errorReply(409, ApiError.feedbackConflict);
  const resubmitted = r.feedback?.value === body.value;
  if (!r.feedback || !resubmitted) r.feedback = { value: body.value, submittedAt: now };
  sim.stats.counters.feedback++;
  sim.stats.counters.feedbackByValue[body.value]++;
  const out: Record<string, unknown> = { status: 'ok', request_id: r.id, feedback: r.feedback.value };
  if (!(resubmitted && sim.options.feedbackResubmit === FeedbackResubmit.omit)) out.feedback_submitted_at = stamp(r.feedback.submittedAt, sim.options.timestamps);
  return reply(200, out);
}
