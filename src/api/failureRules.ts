/**
 * Two rules about a question the service did not answer (docs/reports.md, "Re-asked after the service failed" and
 * "Asked twice"). Pure: the workflows use the first, the ask activity the second.
 */

/**
 * The `error` strings of the spec's request-level refusals (§7): each says what is wrong with the request, the key,
 * the plan or the site, so asking the same question again gets the same answer. Compared lower-cased and trimmed.
 */
export const REQUEST_LEVEL_ERRORS: readonly string[] = Object.freeze([
  'invalid limit or offset',
  'session_id is required',
  'invalid payload',
  "feedback must be 'good' or 'bad'",
  'site id and request id are required',
  'invalid_api_key',
  'api_access_not_available_on_plan',
  'site not found',
  'request not found',
  'feedback can only be submitted for completed responses',
]);

const REQUEST_LEVEL = new Set(REQUEST_LEVEL_ERRORS);

/**
 * Whether a request the service itself reported as failed (a `failed` status, or a sync chat's 5xx with the API's
 * JSON `error`) may succeed when asked again. Transient unless its `error` is one of {@link REQUEST_LEVEL_ERRORS}:
 * the spec's example `failed to call rag service`, any other string (§7 calls its 500 string an example), and a
 * failure without one are the service's own trouble.
 */
export function isTransientFailure(error: string | undefined): boolean {
  return !REQUEST_LEVEL.has((error ?? '').trim().toLowerCase());
}

/** Re-asks per row after the service failed (`--reask-failed`). @default 2 */
export const DEFAULT_REASK_FAILED = 2;
/** The most `--reask-failed` takes: each re-ask is a question more on the API's budget. */
export const MAX_REASK_FAILED = 5;

/** Spec §7's backoff for what is retryable: 1 s before the first re-ask, then 2 s, 4 s …, at most 30 s. */
export function reaskDelayMs(reask: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, reask - 1));
}

/** What a row's submission record says of its sends (`Submission`, src/domain/results.ts). */
export interface SendCount {
  sends: number;
  earlierExtraSends?: number;
  earlierUnknown?: boolean;
}

/**
 * The row's sends that may be second asks (`askedTwice.extraSends`): every send of an ask after its first (the one
 * before it may have been taken), and a re-ask's first send when an earlier ask had a send of unknown outcome (it may
 * have been answered). A re-ask after sends that all ended in the service's `failed` is no second ask.
 */
export function extraSends(s: SendCount): number {
  return Math.max(0, s.sends - 1) + (s.earlierUnknown && s.sends > 0 ? 1 : 0) + (s.earlierExtraSends ?? 0);
}

/** What a re-ask's record carries of the ask before it (`earlier`), so that its possible second asks stay counted. */
export function carriedSends(earlier: SendCount): Omit<SendCount, 'sends'> {
  const extra = extraSends(earlier);
  const unknown = earlier.earlierUnknown === true || earlier.sends > 1;
  return { ...(extra > 0 && { earlierExtraSends: extra }), ...(unknown && { earlierUnknown: true }) };
}

/**
 * Whether a send of a question that ended with this HTTP status (undefined: no response at all — a time-out, a reset)
 * may have been taken by the API, so it stays counted and a later send of the same question counts as a possible
 * second ask (`askedTwice`). Only a 4xx (429 and 408 included) certainly created nothing: the API refused the request
 * before acting on it. A 5xx, a proxy's 502 page or no response may come after the API accepted the question.
 */
export function mayHaveBeenTaken(status: number | undefined): boolean {
  return status === undefined || status < 400 || status >= 500;
}
