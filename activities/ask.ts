import { ApplicationFailure, Context } from '@temporalio/activity';
import { APIConnectionTimeoutError, SiteChatError } from '../src/api/errors';
import type { ActivityDeps } from './deps';
import { asFailure, toFailure } from './failures';
import type { Submission } from '../src/reports/types';
import type { AskHeartbeat, AskInput, AskResult } from './types';
import { StatusPoller } from './statusPoller';

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

/** How long an ask waits before its first heartbeat: half the 20 s heartbeat timeout. */
const HEARTBEAT_AFTER_MS = 10_000;

/**
 * Waits for the answer through the worker's one status poller (`deps.statusPoller`), which polls every request in
 * flight in one paced loop and heartbeats for this activity once the answer takes longer than HEARTBEAT_AFTER_MS
 * (heartbeats are billed; the store already holds the request id).
 */
async function poll(deps: ActivityDeps, input: AskInput, req: AskHeartbeat): Promise<AskResult> {
  const ctx = Context.current();
  const deadline = req.submittedAtMs + input.answerTimeoutMs;
  const base = { sessionId: req.sessionId, requestId: req.requestId };
  const latencyMs = (): number => Date.now() - req.submittedAtMs;
  let outcome;
  try {
    outcome = await deps.statusPoller.watch({
      siteId: input.siteId, requestId: req.requestId, firstPollAt: Date.now() + deps.firstPollDelayMs, deadline,
      signal: ctx.cancellationSignal, heartbeat: () => ctx.heartbeat(req),
    });
  } catch (err) {
    throw toFailure(err);
  }
  if (outcome.kind === 'gone') return { ...base, status: 'failed', error: outcome.error, latencyMs: latencyMs() };
  if (outcome.kind === 'timed_out') {
    const waited = Math.round(input.answerTimeoutMs / 1000);
    return { ...base, status: 'timed_out', error: `no answer within ${waited}s${outcome.lastError ? ` (last poll: ${outcome.lastError})` : ''}`, latencyMs: latencyMs() };
  }
  const status = outcome.status;
  if (status.status === 'failed') return { ...base, status: 'failed', error: status.error ?? 'failed without an error string', latencyMs: latencyMs() };
  return {
    ...base, status: 'completed', answer: status.answer ?? '', latencyMs: latencyMs(),
    confidenceScore: status.confidence_score, confidenceLevel: status.confidence_level, confidenceReason: status.confidence_reason,
  };
}

/** The status poller of a worker built from its activity settings: polls of one request never closer than one path's budget. */
export function statusPollerFor(deps: Pick<ActivityDeps, 'api' | 'limiter' | 'pollIntervalMs' | 'minPollGapMs' | 'pollScope' | 'routePacedSites'>, log: { warn: (msg: string) => void }): StatusPoller {
  return new StatusPoller({
    api: deps.api,
    limiter: deps.limiter,
    // Never faster than the API's budget for the request's own path (a poll interval of 0 would earn 429s).
    intervalMs: Math.max(deps.pollIntervalMs, deps.minPollGapMs),
    beatAfterMs: HEARTBEAT_AFTER_MS,
    routeKey: statusPollKey,
    // Per path (the spec's reading) a poll a second per request is far under the limit: no pacing, no waiting.
    pacedPerRoute: (siteId) => deps.pollScope === 'route' || deps.routePacedSites.has(siteId),
    onRateLimited: (siteId) => {
      // The server counts this site's status route, not each path: pace every poll of the site from now on.
      if (deps.routePacedSites.has(siteId)) return;
      deps.routePacedSites.add(siteId);
      log.warn(`status polls of site ${siteId} got 429: pacing them per route (${statusPollKey(siteId)}) from now on; set SITECHAT_POLL_SCOPE=route to start that way`);
    },
  });
}
