/**
 * One HTTP POST of a notification, classified for the retry policy: 2xx delivered; 408, 429, 5xx and network errors
 * worth another attempt (a `Retry-After` says when); any other answer refused for good (a 404 will not heal by
 * itself). Never follows redirects: a webhook URL that moved is a configuration to fix, and following it would send
 * the body somewhere the operator did not name. Messages never hold the URL.
 */

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
  /** Removes the URL and secrets from text that may echo them (a receiver's error body, a network error). */
  scrub: (text: string) => string;
}

/** Characters of a receiver's error body kept in the reason. */
const MAX_BODY_IN_REASON = 200;

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
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const what = cause?.code ?? cause?.message ?? (err instanceof Error ? err.name : 'error');
    return { status: 'retry', reason: req.scrub(`network error: ${what}`) };
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) return { status: 'delivered', httpStatus: res.status };
  const shown = text.replace(/\s+/gu, ' ').trim().slice(0, MAX_BODY_IN_REASON);
  const reason = req.scrub(`HTTP ${res.status}${shown ? `: ${shown}` : ''}`);
  if (res.status >= 300 && res.status < 400) return { status: 'refused', reason: `${reason} (a redirect: give the webhook's final URL)` };
  if (isRetryableStatus(res.status)) return { status: 'retry', reason, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
  return { status: 'refused', reason };
}
