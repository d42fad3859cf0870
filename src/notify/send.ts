/**
 * One HTTP POST of a notification, classified for the retry policy: 2xx delivered; 408, 429, 5xx and network errors
 * worth another attempt (a `Retry-After` says when); any other answer refused for good (a 404 will not heal by
 * itself). Never follows redirects: a webhook URL that moved is a configuration to fix, and following it would send
 * the body somewhere the operator did not name.
 *
 * What a receiver answers is never kept: a body may quote the request's path (Express's `Cannot POST /hook/<path>`),
 * and a Slack webhook's secret IS its path. So a reason is made only of fixed text: the status, its standard phrase,
 * and, when the whole body is one of Slack's documented error codes, that code. At most `MAX_RESPONSE_BYTES` of a
 * body are read, so a receiver that answers gigabytes costs no memory.
 */
import { STATUS_CODES } from 'node:http';

export type SendResult =
  | { status: 'delivered'; httpStatus: number }
  | { status: 'retry'; reason: string; retryAfterMs?: number }
  | { status: 'refused'; reason: string };

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** @default 30000 */
  timeoutMs?: number;
}

/** Bytes of a receiver's answer read at most; the rest is never read (the connection is closed). */
export const MAX_RESPONSE_BYTES = 4096;

/**
 * The error codes a Slack incoming webhook answers in its body (api.slack.com/messaging/webhooks, "Handling errors"):
 * a closed vocabulary, so one of them can be shown without showing anything the receiver chose to say.
 */
const SLACK_ERROR_CODES: ReadonlySet<string> = new Set([
  'invalid_payload', 'user_not_found', 'channel_not_found', 'channel_is_archived', 'action_prohibited',
  'posting_to_general_channel_denied', 'too_many_attachments', 'no_service', 'no_service_id', 'no_team',
  'team_disabled', 'invalid_token', 'no_text', 'missing_text_or_fallback_or_attachments', 'rate_limited',
]);

/** A network error's code (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`) or error class (`TimeoutError`): never its message, which may name the host and path. */
const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/u;

/** `Retry-After: 120` or an HTTP date → milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The first `max` bytes of a body (at least; reads stop at the chunk that reaches it), then the stream is cancelled. */
export async function readHead(body: ReadableStream<Uint8Array> | null, max = MAX_RESPONSE_BYTES): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut off or timed out: what arrived is all the reason needs.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max);
}

/** `HTTP 404 Not Found`, and `: no_service` when the body is exactly one of Slack's error codes. Nothing else of the answer. */
export function statusReason(status: number, head: Buffer): string {
  const phrase = STATUS_CODES[status];
  const code = head.toString('utf8').trim();
  return `HTTP ${status}${phrase ? ` ${phrase}` : ''}${SLACK_ERROR_CODES.has(code) ? `: ${code}` : ''}`;
}

/** `network error: ECONNREFUSED`: the code or error class only. */
export function networkReason(err: unknown): string {
  const code = (err as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === 'string' && ERROR_CODE.test(code)) return `network error: ${code}`;
  const name = err instanceof Error ? err.name : '';
  return `network error: ${ERROR_CODE.test(name) ? name : 'unknown'}`;
}

export async function postOnce(req: SendRequest): Promise<SendResult> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'User-Agent': 'sitechat-runner', ...req.headers },
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(req.timeoutMs ?? 30_000),
    });
  } catch (err) {
    return { status: 'retry', reason: networkReason(err) };
  }
  if (res.status >= 200 && res.status < 300) {
    await res.body?.cancel().catch(() => undefined);
    return { status: 'delivered', httpStatus: res.status };
  }
  const reason = statusReason(res.status, await readHead(res.body));
  if (res.status >= 300 && res.status < 400) return { status: 'refused', reason: `${reason} (a redirect: give the webhook's final URL)` };
  if (isRetryableStatus(res.status)) return { status: 'retry', reason, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
  return { status: 'refused', reason };
}
