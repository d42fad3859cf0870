/**
 * Maps whatever a judge call threw to a judge error, scrubbing the key from anything the server echoed. Only a
 * cancellation by the caller passes through as it is: every other failure gets a class, so the judge's own retry
 * limit (SITECHAT_JUDGE_MAX_ATTEMPTS) ends it, never a retry policy's default.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  RateLimitError,
} from 'openai';
import type { Secret } from '../../api/secret';
import {
  JudgeConnectionError,
  JudgeError,
  JudgeRateLimitError,
  JudgeRequestError,
  JudgeResponseError,
  JudgeServerError,
} from './errors';

/** The call that failed. */
export interface JudgeCallContext {
  /** The judge's origin (never its path or key), for the message. */
  origin: string;
  timeoutMs: number;
  /** The call's own time-out signal fired (SITECHAT_JUDGE_TIMEOUT_MS over the whole call, body included). */
  timedOut: boolean;
  /** The caller's signal fired: an activity cancelled, a command interrupted. */
  cancelled: boolean;
}

const HINTS: Record<number, string> = {
  401: 'check SITECHAT_JUDGE_API_KEY',
  403: 'check SITECHAT_JUDGE_API_KEY and that it may use the model',
  404: 'check SITECHAT_JUDGE_BASE_URL (it ends where `/chat/completions` is appended, e.g. …/v1) and SITECHAT_JUDGE_MODEL',
};

/** The judge error for anything the call threw. Cancellations by the caller pass through unchanged. */
export function toJudgeError(err: unknown, secret: Secret, context: JudgeCallContext): unknown {
  if (err instanceof JudgeError || context.cancelled) return err;
  // Past the headers the client's own timer is off; the call's signal then aborts the body, which throws a bare
  // AbortError (before the headers: the client's APIUserAbortError).
  if (context.timedOut || err instanceof APIConnectionTimeoutError) {
    return new JudgeConnectionError(`judge at ${context.origin} did not answer within ${context.timeoutMs} ms (SITECHAT_JUDGE_TIMEOUT_MS)`);
  }
  // Aborted by neither signal: nothing else aborts a call, so treat it as the caller's.
  if (err instanceof APIUserAbortError) return err;
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${secret.scrub(causeText(err.cause))}` : '';
    return new JudgeConnectionError(`could not reach the judge at ${context.origin}${cause} — check SITECHAT_JUDGE_BASE_URL`);
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const detail = secret.scrub(apiMessage(err));
    const base = `${err.status} from the judge at ${context.origin}: ${detail}`;
    if (err instanceof RateLimitError) {
      const wait = retryAfterMs(err.headers);
      return new JudgeRateLimitError(wait === undefined ? base : `${base} (Retry-After: ${wait} ms)`, wait);
    }
    if (err.status >= 500 || err.status === 408) return new JudgeServerError(base, err.status);
    const hint = HINTS[err.status];
    return new JudgeRequestError(hint ? `${base} — ${hint}` : base, err.status);
  }
  // Thrown while the body was read: undici's "terminated" when the peer closes mid-body.
  const code = networkCode(err);
  if (code !== undefined) {
    return new JudgeConnectionError(`the connection to the judge at ${context.origin} broke before the reply was complete (${code})`);
  }
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new JudgeResponseError(`judge call to ${context.origin} failed while its reply was read: ${secret.scrub(text).slice(0, 200)}`);
}

/** Socket errors (`ECONNRESET`, `EPIPE` …) and undici's (`UND_ERR_SOCKET` …), not Node's `ERR_*` argument errors. */
const NETWORK_CODE = /^(?:E[A-Z]+|UND_ERR_[A-Z_]+)$/u;

/** The first network error code in an error's cause chain. */
function networkCode(err: unknown): string | undefined {
  let at: unknown = err;
  for (let depth = 0; depth < 4 && at instanceof Error; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODE.test(code)) return code;
    at = at.cause;
  }
  return undefined;
}

function apiMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | string | undefined;
  if (typeof body === 'string' && body !== '') return body.slice(0, 200);
  if (body && typeof body === 'object' && typeof body.message === 'string') return body.message.slice(0, 200);
  return (err.message || 'no error message').slice(0, 200);
}

function causeText(cause: Error): string {
  const inner = (cause as { cause?: unknown }).cause;
  const code = (inner as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${cause.message} (${code})` : cause.message;
}

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, when the provider sends one. */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}
