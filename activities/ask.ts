import { ApplicationFailure, Context } from '@temporalio/activity';
import { APIConnectionTimeoutError, NotFoundError, RateLimitError, SiteChatError } from '../src/api/errors';
import type { ActivityDeps } from './deps';
import { asFailure, toFailure } from './failures';
import type { Submission } from '../src/reports/types';
import type { AskHeartbeat, AskInput, AskResult } from './types';

/**
 * Submit one question and wait for its answer in the same activity. As soon as the API accepts the question, its
 * request id goes into the results store (and, once the activity heartbeats, its heartbeat details), so a retry
 * (worker crash, timeout, a Temporal outage) resumes polling the same request instead of asking twice.
 * Spec §8: first poll after 1–2 s, then every 1–2 s, give up after a while.
 */
export function askActivity(deps: ActivityDeps) {
  return async function ask(input: AskInput): Promise<AskResult> {
    const ctx = Context.current();
    const beat = ctx.info.heartbeatDetails as AskHeartbeat | undefined;
    // The heartbeat may not have reached the server before the worker died: the store has what was recorded.
    const recorded = !beat?.requestId && ctx.info.attempt > 1 ? await deps.store.getSubmission(input.runId, input.rowId) : undefined;
    const known = beat?.requestId ? beat : recorded?.requestId ? asHeartbeat(recorded) : undefined;
    const submitted = known ?? (await submit(deps, input, recorded));
    if ('status' in submitted) return submitted;
    return poll(deps, input, submitted);
  };
}

function asHeartbeat(s: Submission): AskHeartbeat {
  return { requestId: s.requestId as string, sessionId: s.sessionId ?? '', submittedAtMs: s.submittedAtMs ?? Date.now() };
}

/**
 * Sends the question, counting the send in the store first: if the response is lost (connection reset after the
 * server accepted it), the next attempt sends again, and the row is then known to have been asked possibly twice.
 * A refusal with a status (429, 5xx, 4xx) created nothing, so it is taken back.
 */
async function submit(deps: ActivityDeps, input: AskInput, recorded: Submission | undefined): Promise<AskHeartbeat | AskResult> {
  const sends = (recorded?.sends ?? 0) + 1;
  await deps.store.recordSubmission(input.runId, { rowId: input.rowId, sends });
  try {
    const res = await send(deps, input);
    if ('requestId' in res && res.requestId && !('status' in res)) {
      await deps.store.recordSubmission(input.runId, { rowId: input.rowId, sends, ...res });
    }
    return res;
  } catch (err) {
    const refused = (err instanceof SiteChatError && err.status !== undefined) || isApplicationFailureWithStatus(err);
    if (refused) await deps.store.recordSubmission(input.runId, { rowId: input.rowId, sends: sends - 1 });
    throw err;
  }
}

function isApplicationFailureWithStatus(err: unknown): boolean {
  const details = err instanceof ApplicationFailure ? (err.details?.[0] as { status?: number } | undefined) : undefined;
  return typeof details?.status === 'number';
}

async function send(deps: ActivityDeps, input: AskInput): Promise<AskHeartbeat | AskResult> {
  const signal = Context.current().cancellationSignal;
  const body = {
    message: input.message,
    session_id: input.sessionId,
    email: input.email,
    model: input.model,
    response_language: input.responseLanguage,
    ui_locale: input.uiLocale,
  };
  if (input.mode === 'sync') {
    const started = Date.now();
    let res;
    try {
      res = await deps.limiter.run(`POST /m2m/sites/${input.siteId}/chat`, () => deps.api.chat.send(input.siteId, body, { signal }), signal);
    } catch (err) {
      // No response means no request id to look up, and sending again could ask twice: record, don't retry.
      // The server gave up at its ceiling but named the request: it may still finish, so look it up.
      if (err instanceof SiteChatError && err.requestId && err.sessionId) {
        return { requestId: err.requestId, sessionId: err.sessionId, submittedAtMs: started };
      }
      if (err instanceof APIConnectionTimeoutError) {
        return { status: 'failed', error: `sync chat gave no response in time; the server may still have answered (no request id to look up): ${err.message}`, latencyMs: Date.now() - started };
      }
      throw toFailure(err);
    }
    return {
      status: 'completed', sessionId: res.session_id, requestId: res.request_id, answer: res.answer,
      confidenceScore: res.confidence_score, confidenceLevel: res.confidence_level, confidenceReason: res.confidence_reason,
      latencyMs: Date.now() - started,
    };
  }
  const submittedAtMs = Date.now();
  const res = await asFailure(() =>
    deps.limiter.run(`POST /m2m/sites/${input.siteId}/chat/async`, () => deps.api.chat.submit(input.siteId, body, { signal }), signal));
  return { requestId: res.request_id, sessionId: res.session_id, submittedAtMs };
}

/**
 * The limiter key of every status poll of a site, for a server that counts the status route rather than each
 * request's path (spec §8 says "path"): at most `ratePerSecond` polls per site, at the cost of slower polling
 * (and answers seen later) when many questions are open.
 */
export function statusPollKey(siteId: string): string {
  return `GET /m2m/sites/${siteId}/chat/requests/*`;
}

/** Whether this worker paces the status polls of `siteId` per route (configured, or learned from a 429). */
function paced(deps: ActivityDeps, siteId: string): boolean {
  return deps.pollScope === 'route' || deps.routePacedSites.has(siteId);
}

/** How often an activity waiting for the limiter still reports that it is alive. */
const WAIT_HEARTBEAT_MS = 5_000;

/** Waits for `work`, heartbeating meanwhile: a poll may queue behind many others for longer than the heartbeat timeout. */
async function heartbeating<T>(ctx: Context, details: AskHeartbeat, work: Promise<T>): Promise<T> {
  const timer = setInterval(() => ctx.heartbeat(details), WAIT_HEARTBEAT_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** How long an ask waits before its first heartbeat: half the 20 s heartbeat timeout. */
const HEARTBEAT_AFTER_MS = 10_000;

async function poll(deps: ActivityDeps, input: AskInput, req: AskHeartbeat): Promise<AskResult> {
  const ctx = Context.current();
  const startedAt = Date.now();
  const signal = ctx.cancellationSignal;
  const deadline = req.submittedAtMs + input.answerTimeoutMs;
  const base = { sessionId: req.sessionId, requestId: req.requestId };
  let lastError: string | undefined;
  await ctx.sleep(Math.min(deps.firstPollDelayMs, Math.max(0, deadline - Date.now())));
  for (;;) {
    // Never faster than the API's budget for the request's own path (a poll interval of 0 would earn 429s).
    let waitMs = Math.max(deps.pollIntervalMs, deps.minPollGapMs);
    try {
      const get = () => deps.api.requests.get(input.siteId, req.requestId, { signal });
      // Per path (the spec's reading) a poll a second per request is far under the limit: no pacing, no waiting.
      const status = paced(deps, input.siteId) ? await heartbeating(ctx, req, deps.limiter.run(statusPollKey(input.siteId), get, signal)) : await get();
      lastError = undefined;
      if (status.status === 'completed') {
        return {
          ...base, status: 'completed', answer: status.answer ?? '', latencyMs: Date.now() - req.submittedAtMs,
          confidenceScore: status.confidence_score, confidenceLevel: status.confidence_level, confidenceReason: status.confidence_reason,
        };
      }
      if (status.status === 'failed') {
        return { ...base, status: 'failed', error: status.error ?? 'failed without an error string', latencyMs: Date.now() - req.submittedAtMs };
      }
    } catch (err) {
      // The request was accepted; a 404 now means it expired or vanished, which no retry will change.
      if (err instanceof NotFoundError) return { ...base, status: 'failed', error: `status lookup: ${err.status} ${err.error}`, latencyMs: Date.now() - req.submittedAtMs };
      if (!(err instanceof SiteChatError) || !err.retryable) throw toFailure(err);
      // 429/5xx/network while polling: keep polling until the deadline rather than re-running the activity.
      lastError = `${err.status ?? 'network'} ${err.error ?? err.message}`;
      if (err instanceof RateLimitError) {
        // The server counts this site's status route, not each path: pace every poll of the site from now on.
        if (!deps.routePacedSites.has(input.siteId)) {
          deps.routePacedSites.add(input.siteId);
          ctx.log.warn(`status polls of site ${input.siteId} got 429: pacing them per route (${statusPollKey(input.siteId)}) from now on; set SITECHAT_POLL_SCOPE=route to start that way`);
        }
        // A 429 names how long to back off; polling sooner would only earn another one.
        if (err.retryAfterMs !== undefined) waitMs = Math.max(waitMs, err.retryAfterMs);
      }
    }
    // Heartbeats are billed and the store already holds the request id: an answer that comes within the first
    // HEARTBEAT_AFTER_MS needs none; a longer wait shows the server this worker is alive (timeout 20 s).
    if (Date.now() - startedAt >= HEARTBEAT_AFTER_MS) ctx.heartbeat(req);
    if (Date.now() >= deadline) {
      const waited = Math.round(input.answerTimeoutMs / 1000);
      return { ...base, status: 'timed_out', error: `no answer within ${waited}s${lastError ? ` (last poll: ${lastError})` : ''}`, latencyMs: Date.now() - req.submittedAtMs };
    }
    // A long Retry-After is waited out in pieces, each followed by a heartbeat, within the 20 s heartbeat timeout.
    let left = Math.min(waitMs, Math.max(0, deadline - Date.now()));
    while (left > 0) {
      const piece = Math.min(left, HEARTBEAT_AFTER_MS);
      await ctx.sleep(piece);
      left -= piece;
      if (left > 0) ctx.heartbeat(req);
    }
  }
}
