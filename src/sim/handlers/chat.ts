import { isReply, resolveSite } from '../auth';
import { ApiError } from '../constants';
import { errorReply, reply, type Reply, type RequestContext } from '../http/types';
import { composeAnswer } from '../kb/answer';
import { findModel } from '../kb/models';
import { ClosedSessionChat, UnknownModel } from '../options';
import { sampleCompletionMs } from '../prng';
import type { Simulator } from '../simulator';
import { RequestStatus, type ChatRequestRecord } from '../state/requests';
import type { SessionRecord } from '../state/sessions';
import { parseChatBody, type ChatBody } from './chatBody';

/** `placeholder` of the async submit response. */
export const PLACEHOLDER = 'Looking that up for you…';

/** The `confidence_*` fields of a settled request. */
export function confidenceFields(r: ChatRequestRecord): Record<string, unknown> {
  const { confidenceScore, confidenceLevel, confidenceReason } = r.result;
  return { confidence_score: confidenceScore, confidence_level: confidenceLevel, confidence_reason: confidenceReason };
}

/** Finds or creates the session of a chat body; a Reply when the session is closed and such chats are rejected. */
function sessionFor(sim: Simulator, siteId: string, body: ChatBody, now: number): SessionRecord | Reply {
  const existing = body.sessionId ? sim.sessions.get(siteId, body.sessionId) : undefined;
  if (!existing) return sim.sessions.create(siteId, body.sessionId ?? sim.newId('session'), body.email ?? '', now);
  if (existing.closedAt !== null && sim.options.closedSessionChat === ClosedSessionChat.reject) {
    return errorReply(409, ApiError.sessionClosed);
  }
  if (body.email) sim.sessions.setEmail(existing, body.email);
  return existing;
}

/**
 * Accepts a chat message (spec §4.3/§4.4): validates, finds or creates the session, computes the
 * answer now and schedules it for a sampled completion time. Returns the stored request.
 */
function submit(sim: Simulator, ctx: RequestContext, mode: 'sync' | 'async'): ChatRequestRecord | Reply {
  const site = resolveSite(sim.registry, ctx.tenant, ctx.params.site, ApiError.siteNotFound);
  if (isReply(site)) return site;
  const body = parseChatBody(ctx.body, sim.options);
  if (!body) return errorReply(400, ApiError.invalidPayload);
  let model = findModel(body.model ?? site.defaultModel);
  if (!model && sim.options.unknownModel === UnknownModel.fallback) model = findModel(site.defaultModel);
  if (!model) return errorReply(400, ApiError.invalidPayload);
  const now = sim.tick();
  const session = sessionFor(sim, site.id, body, now);
  if (isReply(session)) return session;

  // A degraded site answers with its forced model; the request still names (and records) the one asked for.
  const answering = findModel(sim.degraded.get(site.id) ?? model.name) ?? model;
  const variation = sim.noise.draw(site.id, answering.name, body.message);
  const result = composeAnswer(site.knowledge, {
    message: body.message, previousMessages: session.recentUserMessages, model: answering, seed: sim.options.seed, ...(variation ? { variation } : {}),
  });
  const id = sim.newId('request');
  const fails = sim.faults.roll(ctx.endpoint, 'asyncFailRate');
  if (fails) sim.stats.counters.faults.asyncFailures++;
  const hiccup = !fails && sim.faults.rollOnce(ctx.endpoint, 'transientFailRate', `${site.id}\n${body.message}`);
  if (hiccup) sim.stats.counters.faults.transientFailures++;
  const error = fails ? (sim.faults.asyncFailError(ctx.endpoint) ?? ApiError.ragFailure) : hiccup ? ApiError.ragFailure : undefined;
  const sameSession = sim.sessions.addUserMessage(session, body.message, now, error !== undefined);
  const reask = sim.asks.record({ siteId: site.id, email: body.email ?? session.email, sessionId: session.id, message: body.message, requestId: id }, now);
  if (sameSession || reask) sim.stats.counters.duplicateSubmissions++;

  const delay = sampleCompletionMs(sim.latency, sim.options.latencyScale) + sim.faults.processingDelayMs(ctx.endpoint);
  const record: ChatRequestRecord = {
    id, siteId: site.id, sessionId: session.id, mode, message: body.message, model: model.name,
    ...(body.email ? { email: body.email } : {}),
    ...(body.responseLanguage ? { responseLanguage: body.responseLanguage } : {}),
    ...(body.uiLocale ? { uiLocale: body.uiLocale } : {}),
    createdAt: now, readyAt: now + delay, status: RequestStatus.pending,
    outcome: error !== undefined ? RequestStatus.failed : RequestStatus.completed, result,
    ...(error !== undefined ? { error } : {}),
  };
  sim.requests.add(record);
  sim.stats.counters.submitted++;
  sim.stats.counters.submittedByMode[mode]++;
  return record;
}

/** A submit response that never reaches the client makes a later identical ask, in any session, a retry of this one. */
function lost(sim: Simulator, r: ChatRequestRecord): () => void {
  return () => sim.asks.lost(r.id);
}

/** `POST .../chat/async`: 200 `{ request_id, session_id, status: 'pending', placeholder }`. */
export function chatAsync(sim: Simulator, ctx: RequestContext): Reply {
  const r = submit(sim, ctx, 'async');
  if (isReply(r)) return r;
  return { ...reply(200, { request_id: r.id, session_id: r.sessionId, status: RequestStatus.pending, placeholder: PLACEHOLDER }), onLost: lost(sim, r) };
}

/**
 * `POST .../chat`: blocks until the request settles. A failed request is 500 `failed to call rag
 * service`; reaching the ceiling (60 s × latencyScale) is 504 with the ids, and the request keeps
 * processing (visible through the status endpoint).
 */
export async function chatSync(sim: Simulator, ctx: RequestContext): Promise<Reply> {
  const r = submit(sim, ctx, 'sync');
  if (isReply(r)) return r;
  const settled = await sim.waiters.wait(r, sim.options.syncTimeoutMs * sim.options.latencyScale);
  if (!settled) return { ...errorReply(504, ApiError.syncTimeout, { session_id: r.sessionId, request_id: r.id }), onLost: lost(sim, r) };
  if (r.status === RequestStatus.failed) return { ...errorReply(500, r.error ?? ApiError.ragFailure), onLost: lost(sim, r) };
  const confidence = sim.options.syncConfidence ? confidenceFields(r) : {};
  return { ...reply(200, { session_id: r.sessionId, request_id: r.id, answer: r.result.answer, ...confidence }), onLost: lost(sim, r) };
}
