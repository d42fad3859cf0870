/** Maps the `openai` client's errors to judge errors, scrubbing the key from anything the server echoed. */
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
  JudgeServerError,
} from './errors';

const HINTS: Record<number, string> = {
  401: 'check SITECHAT_JUDGE_API_KEY',
  403: 'check SITECHAT_JUDGE_API_KEY and that it may use the model',
  404: 'check SITECHAT_JUDGE_BASE_URL (it ends where `/chat/completions` is appended, e.g. …/v1) and SITECHAT_JUDGE_MODEL',
};

/** The judge error for anything the client threw. Cancellations pass through unchanged. */
export function toJudgeError(err: unknown, secret: Secret, context: { origin: string; timeoutMs: number }): unknown {
  if (err instanceof JudgeError || err instanceof APIUserAbortError) return err;
  if (err instanceof APIConnectionTimeoutError) {
    return new JudgeConnectionError(`judge at ${context.origin} did not answer within ${context.timeoutMs} ms`);
  }
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${secret.scrub(causeText(err.cause))}` : '';
    return new JudgeConnectionError(`could not reach the judge at ${context.origin}${cause} — check SITECHAT_JUDGE_BASE_URL`);
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const detail = secret.scrub(apiMessage(err));
    const base = `${err.status} from the judge at ${context.origin}: ${detail}`;
    if (err instanceof RateLimitError) return new JudgeRateLimitError(base, retryAfterMs(err.headers));
    if (err.status >= 500 || err.status === 408) return new JudgeServerError(base, err.status);
    const hint = HINTS[err.status];
    return new JudgeRequestError(hint ? `${base} — ${hint}` : base, err.status);
  }
  const text = err instanceof Error ? err.message : String(err);
  return new JudgeError(`judge call failed: ${secret.scrub(text)}`);
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
