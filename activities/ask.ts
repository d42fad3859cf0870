import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import { APIConnectionTimeoutError, InternalServerError, SiteChatError } from '../src/api/errors';
import { carriedSends, mayHaveBeenTaken } from '../src/api/failureRules';
import type { ActivityDeps } from './deps';
import { asFailure, toFailure } from './failures';
import type { Submission } from '../src/domain/results';
import type { Label } from '../src/domain/label';
import type { AskHeartbeat, AskInput, AskResult } from './types';
import { StatusPoller } from './statusPoller';
import { withStoreRetry } from './storeOutage';
import { StoreUnavailableError } from '../src/store/errors';
import { personLabelOf } from '../src/labels/apply';
import { labelKey } from '../src/labels/key';

/**
 * Submit one question and wait for its answer in the same activity. As soon as the API accepts the question, its
 * request id goes into the results store (and the heartbeat details when the store is slow or down), so a retry
 * (worker crash, timeout, a Temporal outage, a store outage) resumes polling the same request instead of asking twice. Store operations wait
 * out a store that cannot be reached in place: the activity's own retry would send the question again.
 * Spec §8: first poll after 1–2 s, then every 1–2 s, give up after a while.
 */
export function askActivity(deps: ActivityDeps) {
  return async function ask(input: AskInput): Promise<AskResult> {
    const ctx = Context.current();
    const beat = ctx.info.heartbeatDetails as AskHeartbeat | undefined;
    const stored = <T>(op: () => Promise<T>, details?: AskHeartbeat): Promise<T> =>
      withStoreRetry(op, deps.storeOutageLimitMs, (wait) => ctx.heartbeat({ ...details, ...wait }));
    // The heartbeat may not have reached the server before the worker died: the store has what was recorded. A re-ask
    // reads it on its first attempt too, to carry an earlier ask's second send forward.
    const reask = input.ask ?? 0;
    const recorded = !beat?.requestId && (ctx.info.attempt > 1 || reask > 0) ? await stored(() => deps.store.getSubmission(input.runId, input.rowId)) : undefined;
    // An earlier ask's record names the request the service failed: this ask never polls it.
    const mine = recorded && (recorded.ask ?? 0) === reask ? recorded : undefined;
    const known = beat?.requestId ? beat : mine?.requestId ? asHeartbeat(mine) : undefined;
    const answer = async (): Promise<AskResult> => {
      if (known) return poll(deps, input, known, true);
      const submitted = await submit(deps, input, { sends: mine?.sends ?? 0, ...submissionOf(input, recorded) }, stored);
      if ('status' in submitted) return submitted;
      return poll(deps, input, submitted, false);
    };
    return withLabel(input, await answer(), stored, (keys) => deps.store.getLabels(keys));
  };
}

/**
 * The answer with its label key and the label a person gave it, if any: looked up here, where the answer and the
 * store already are, so a labelled row costs no activity of its own. A lookup that fails on anything but an outage
 * (waited out like every store call) only loses the label: the row is graded as if it had none, and the activity
 * never fails after the question was answered (its retry could ask again).
 */
async function withLabel(input: AskInput, result: AskResult, stored: Stored, getLabels: ResultsStoreLabels): Promise<AskResult> {
  if (!input.label || result.status !== 'completed') return result;
  const key = labelKey({ siteId: input.siteId, question: input.message, ...input.label, answer: result.answer ?? '' });
  // While the lookup waits out an outage, the heartbeat keeps naming the request: a retry polls it, never asks again.
  const details = result.requestId && result.sessionId
    ? { requestId: result.requestId, sessionId: result.sessionId, submittedAtMs: Date.now() - result.latencyMs }
    : undefined;
  let found;
  try {
    found = (await stored(() => getLabels([key]), details)).get(key);
  } catch (err) {
    Context.current().log.warn(`label lookup of row ${input.rowId} failed, grading it as unlabelled: ${err instanceof Error ? err.message : String(err)}`);
    return { ...result, labelKey: key };
  }
  if (!found) return { ...result, labelKey: key };
  return { ...result, labelKey: key, label: { key, verdict: found.verdict, ...personLabelOf(found) } };
}

type ResultsStoreLabels = (keys: readonly string[]) => Promise<Map<string, Label>>;

function asHeartbeat(s: Submission): AskHeartbeat {
  return { requestId: s.requestId as string, sessionId: s.sessionId ?? '', submittedAtMs: s.submittedAtMs ?? Date.now() };
}

type Stored = <T>(op: () => Promise<T>, details?: AskHeartbeat) => Promise<T>;

type SubmissionBase = Pick<Submission, 'rowId' | 'ask' | 'earlierExtraSends' | 'earlierUnknown'>;

/**
 * What every write of a row's submission record carries besides its sends: which ask it is, and what the row's
 * earlier asks (those a re-ask followed) leave counted (`carriedSends`). A retry of the same ask carries its record's.
 */
function submissionOf(input: AskInput, recorded: Submission | undefined): SubmissionBase {
  const reask = input.ask ?? 0;
  const { earlierExtraSends, earlierUnknown } = recorded ?? {};
  const carried = !recorded ? {} : (recorded.ask ?? 0) === reask ? { earlierExtraSends, earlierUnknown } : carriedSends(recorded);
  return { rowId: input.rowId, ...(reask > 0 && { ask: reask }), ...carried };
}

/**
 * Sends the question. The send is counted in the store once the pacer lets it go, right before the HTTP call (an
 * attempt that dies while waiting for its turn sent nothing). If the answer to it does not say for sure that nothing
 * was created (a 5xx, a proxy's 502 page, a time-out, a reset: the server may have accepted the question), the count
 * stays and the next attempt's send makes the row one that may have been asked twice. Only a 4xx refusal (429 and 408
 * included) created nothing, so it is taken back (src/api/failureRules.ts, `mayHaveBeenTaken`).
 */
async function submit(deps: ActivityDeps, input: AskInput, recorded: SubmissionBase & Pick<Submission, 'sends'>, stored: Stored): Promise<AskHeartbeat | AskResult> {
  const { sends: before, ...record } = recorded;
  let sends = before;
  let counted = false;
  // One try inside the pacer's turn: waiting for a store that is down there would hold the path's place meanwhile.
  const countSend = async (): Promise<void> => {
    await deps.store.recordSubmission(input.runId, { ...record, sends: sends + 1 });
    sends += 1;
    counted = true;
  };
  let res: AskHeartbeat | AskResult;
  for (;;) {
    try {
      res = await send(deps, input, countSend);
      break;
    } catch (err) {
      if (err instanceof StoreUnavailableError && !counted) {
        // Nothing was sent: wait (rewriting the count as it is) until the store takes writes again, outside the
        // turn, then take a new turn.
        await stored(() => deps.store.recordSubmission(input.runId, { ...record, sends }));
        continue;
      }
      if (counted && !mayHaveBeenTaken(statusOf(err))) await stored(() => deps.store.recordSubmission(input.runId, { ...record, sends: sends - 1 }));
      throw err;
    }
  }
  if ('requestId' in res && res.requestId && !('status' in res)) await keepRequestId(deps, input, { ...record, sends }, res, stored);
  return res;
}

/**
 * A store write that has not landed after this long puts the request id in a heartbeat as well. Heartbeats are
 * billed (one per ask would be about 1 action per row): a store that answers at once keeps the id on its own.
 */
const SLOW_STORE_MS = 1_000;

/**
 * The API has the question: from here on a retry must poll, never ask. The store keeps the request id for a retry
 * on any worker. Only when the write is slow, or fails, does the id go into a heartbeat too (a store outage waited
 * out in place heartbeats it with every try), and a write that fails for good does not fail the ask: the heartbeat
 * has the id, and failing here would make the retry ask again.
 */
async function keepRequestId(deps: ActivityDeps, input: AskInput, record: Submission, accepted: AskHeartbeat, stored: Stored): Promise<void> {
  const ctx = Context.current();
  const slow = setTimeout(() => ctx.heartbeat(accepted), SLOW_STORE_MS);
  try {
    await stored(() => deps.store.recordSubmission(input.runId, { ...record, ...accepted }), accepted);
  } catch (err) {
    ctx.heartbeat(accepted);
    if (err instanceof CancelledFailure) throw err;
    ctx.log.warn(`request id of row ${input.rowId} not recorded in the results store (kept in the heartbeat): ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(slow);
  }
}

/** The HTTP status a failed send got, as a client error or as the Temporal failure made of one; undefined without a response. */
function statusOf(err: unknown): number | undefined {
  if (err instanceof SiteChatError) return err.status;
  const details = err instanceof ApplicationFailure ? (err.details?.[0] as { status?: number } | undefined) : undefined;
  return typeof details?.status === 'number' ? details.status : undefined;
}

/** `beforeSend` runs inside the pacer's turn, right before the request goes out. */
async function send(deps: ActivityDeps, input: AskInput, beforeSend: () => Promise<void>): Promise<AskHeartbeat | AskResult> {
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
    // From the request going out: the pacer's wait for a turn is not the assistant's latency.
    let started = Date.now();
    let res;
    // A sync answer may take up to the API's 60 s ceiling, plus the wait for a turn: past half the heartbeat timeout
    // the attempt says it is alive, or Temporal would time it out and its retry ask again (no request id to poll).
    const ctx = Context.current();
    const alive = setInterval(() => ctx.heartbeat(), beatAfterMs(ctx.info.heartbeatTimeoutMs));
    try {
      res = await deps.limiter.run(`POST /m2m/sites/${input.siteId}/chat`, async () => {
        await beforeSend();
        started = Date.now();
        return deps.api.chat.send(input.siteId, body, { signal });
      }, signal);
    } catch (err) {
      // No response means no request id to look up, and sending again could ask twice: record, don't retry.
      // The server gave up at its ceiling but named the request: it may still finish, so look it up.
      if (err instanceof SiteChatError && err.requestId && err.sessionId) {
        return { requestId: err.requestId, sessionId: err.sessionId, submittedAtMs: started };
      }
      if (err instanceof APIConnectionTimeoutError) {
        return { status: 'failed', error: `sync chat gave no response in time; the server may still have answered (no request id to look up): ${err.message}`, latencyMs: Date.now() - started };
      }
      // A 5xx with the API's own JSON error: the service says it failed this request (spec §7's 500 `failed to call
      // rag service`), so it is a failed request for the workflow to re-ask, not an attempt for Temporal to retry in
      // place. A 5xx without it (a proxy's 502 page, no body) may come after the question was taken: retried, and the
      // next send counts as a possible second ask.
      if (err instanceof InternalServerError && err.apiErrorBody) {
        return {
          status: 'failed', sessionId: err.sessionId ?? input.sessionId, ...(err.requestId && { requestId: err.requestId }),
          error: `${err.status ?? 500} ${err.error ?? ''}`.trim(), serviceError: err.error ?? '', latencyMs: Date.now() - started,
        };
      }
      throw toFailure(err);
    } finally {
      clearInterval(alive);
    }
    return {
      status: 'completed', sessionId: res.session_id, requestId: res.request_id, answer: res.answer,
      confidenceScore: res.confidence_score, confidenceLevel: res.confidence_level, confidenceReason: res.confidence_reason,
      latencyMs: Date.now() - started,
    };
  }
  let submittedAtMs = Date.now();
  const res = await asFailure(() =>
    deps.limiter.run(`POST /m2m/sites/${input.siteId}/chat/async`, async () => {
      await beforeSend();
      submittedAtMs = Date.now();
      return deps.api.chat.submit(input.siteId, body, { signal });
    }, signal));
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

/** Half the 60 s heartbeat timeout of `asking`: for an attempt that names none (the worker's poller default). */
const HEARTBEAT_AFTER_MS = 30_000;

/**
 * How long an ask waits for its answer before its first heartbeat: half its heartbeat timeout (60 s, see `asking`),
 * so an answer within 30 s, nearly every real one, costs no heartbeat. Taken from the attempt's own timeout: an ask
 * scheduled with another one (the 20 s of workflows scheduled before) still beats in time.
 */
function beatAfterMs(heartbeatTimeoutMs: number | undefined): number {
  return heartbeatTimeoutMs ? heartbeatTimeoutMs / 2 : HEARTBEAT_AFTER_MS;
}

/**
 * Waits for the answer through the worker's one status poller (`deps.statusPoller`), which polls every request in
 * flight in one paced loop and heartbeats for this activity once the answer takes longer than half its heartbeat timeout
 * (heartbeats are billed; the store already holds the request id). Each heartbeat says when the request was last
 * seen open, so a resumed attempt knows how long nobody watched it.
 *
 * A resumed attempt (`resumed`: a worker died, or Temporal was down and the attempt timed out) that finds the answer
 * already there cannot tell when it came within the time nobody watched: that time is left out of `latencyMs` and
 * recorded as `latencyUnobservedMs`, so an outage of the runner is not reported as a slow assistant.
 */
async function poll(deps: ActivityDeps, input: AskInput, req: AskHeartbeat, resumed: boolean): Promise<AskResult> {
  const ctx = Context.current();
  const watchedFrom = Date.now();
  const deadline = req.submittedAtMs + input.answerTimeoutMs;
  const base = { sessionId: req.sessionId, requestId: req.requestId };
  let unobservedMs: number | undefined;
  const latency = (): Pick<AskResult, 'latencyMs' | 'latencyUnobservedMs'> => {
    const total = Date.now() - req.submittedAtMs;
    return unobservedMs ? { latencyMs: total - unobservedMs, latencyUnobservedMs: unobservedMs } : { latencyMs: total };
  };
  let outcome;
  try {
    outcome = await deps.statusPoller.watch({
      // From the send: the API returned the id at most the submit's own latency later.
      siteId: input.siteId, requestId: req.requestId, acceptedAt: req.submittedAtMs, firstPollAt: resumed ? watchedFrom : watchedFrom + deps.firstPollDelayMs, deadline,
      signal: ctx.cancellationSignal, heartbeat: () => ctx.heartbeat({ ...req, seenOpenAtMs: Date.now() }),
      beatAfterMs: beatAfterMs(ctx.info.heartbeatTimeoutMs),
    });
  } catch (err) {
    throw toFailure(err);
  }
  if (resumed && outcome.kind === 'finished' && outcome.atFirstPoll) {
    // Last seen open at the previous attempt's last heartbeat, else only known to have been sent.
    unobservedMs = Math.max(0, watchedFrom - (req.seenOpenAtMs ?? req.submittedAtMs));
  }
  if (outcome.kind === 'gone') return { ...base, status: 'failed', error: outcome.error, ...latency() };
  if (outcome.kind === 'timed_out') {
    const waited = Math.round(input.answerTimeoutMs / 1000);
    return { ...base, status: 'timed_out', error: `no answer within ${waited}s${outcome.lastError ? ` (last poll: ${outcome.lastError})` : ''}`, ...latency() };
  }
  const status = outcome.status;
  if (status.status === 'failed') return { ...base, status: 'failed', error: status.error ?? 'failed without an error string', serviceError: status.error ?? '', ...latency() };
  return {
    ...base, status: 'completed', answer: status.answer ?? '', ...latency(),
    confidenceScore: status.confidence_score, confidenceLevel: status.confidence_level, confidenceReason: status.confidence_reason,
  };
}

/** The status poller of a worker built from its activity settings: polls of one request never closer than one path's budget. */
export function statusPollerFor(deps: Pick<ActivityDeps, 'api' | 'limiter' | 'pollIntervalMs' | 'minPollGapMs' | 'pollScope' | 'routePacedSites' | 'newRequestGraceMs'>, log: { warn: (msg: string) => void }): StatusPoller {
  return new StatusPoller({
    api: deps.api,
    limiter: deps.limiter,
    // Never faster than the API's budget for the request's own path (a poll interval of 0 would earn 429s).
    intervalMs: Math.max(deps.pollIntervalMs, deps.minPollGapMs),
    beatAfterMs: HEARTBEAT_AFTER_MS,
    newRequestGraceMs: deps.newRequestGraceMs,
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
