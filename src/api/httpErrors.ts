/** Maps HTTP failures and network errors to the classes of `errors.ts`, with a "what to do next" hint. */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  SITE_NOT_FOUND,
  SiteNotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  type SiteChatError,
  type SiteChatErrorInit,
  UnexpectedStatusError,
} from './errors';
import { ErrorBodySchema } from './schemas';

type ErrorClass = new (message: string, init: SiteChatErrorInit) => SiteChatError;

/** What went wrong, and what the user should do next. */
export interface Hint {
  what: string;
  next: string;
  /** `what` in a few words, where `what` is long: the cause line of reports and the terminal ({@link causeText}). @default what */
  short?: string;
}

const BY_STATUS: Readonly<Record<number, { cls: ErrorClass; hint: Hint }>> = {
  400: { cls: BadRequestError, hint: { what: 'the API rejected the request as invalid', next: 'fix the request; retrying it unchanged fails again' } },
  401: {
    cls: AuthenticationError,
    hint: { what: 'the API key is missing, invalid, expired, revoked or belongs to another tenant', next: 'check SITECHAT_API_KEY', short: 'the API refused the key' },
  },
  403: {
    cls: PermissionDeniedError,
    hint: {
      what: "the key's tenant plan lacks M2M API access",
      short: "the key's plan has no API access",
      next: 'upgrade the plan to Level 2 or Level 3, or use a key of a tenant whose plan includes API access',
    },
  },
  404: { cls: NotFoundError, hint: { what: 'the resource does not exist or is not visible to this API key', next: 'check the ids in the path' } },
  408: {
    cls: RequestTimeoutError,
    hint: { what: 'the server or a proxy in front of it did not receive the whole request in time and did not act on it', next: 'retry with backoff' },
  },
  409: {
    cls: ConflictError,
    hint: { what: 'feedback is accepted only for completed requests', next: 'poll the request status until it is completed' },
  },
  429: {
    cls: RateLimitError,
    hint: { what: 'rate limit exceeded (5 requests/s per client IP and path)', next: 'wait at least 1 s, then retry with backoff' },
  },
};

const HINT_5XX: Hint = { what: 'the service or one of its dependencies failed', next: 'retry with exponential backoff' };
const HINT_OTHER: Hint = {
  what: 'this status is not in the API contract',
  next: 'check that SITECHAT_BASE_URL points at the Site Chat API, not a proxy or another service',
};
const HINT_SITE_404: Hint = { what: 'the site does not exist or belongs to another tenant than the API key', next: 'check the site id' };
const HINT_REQUEST_404: Hint = {
  what: 'the request id is unknown to this site, expired or deleted',
  next: 'check the request id and the site id',
};
// A chat 409 is not in §7; a server that refuses chat in a closed session (§3: "not shown") may answer it.
const HINT_CHAT_409: Hint = {
  what: 'the API refused the message in the state of its session (a closed session takes no new messages)',
  next: 'ask in a new session_id',
};

/** HTML tags, and the few entities error pages use. */
const TAG = /<[^>]*>/g;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * The readable part of an HTML error page (a proxy's or a framework's): its title, else its first heading, else all
 * its text, without a leading status number ("502 Bad Gateway" → "Bad Gateway"). Undefined for a body that is not HTML.
 */
export function htmlErrorText(text: string): string | undefined {
  if (!/^\s*<(!doctype\s+html|html|head|body|title|h1)\b/i.test(text)) return undefined;
  const inner = (tag: string): string | undefined => new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(text)?.[1];
  const body = text.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '');
  const words = (html: string | undefined): string => (html ?? '').replace(TAG, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, name: string) => ENTITIES[name] ?? '').replace(/\s+/g, ' ').trim()
    .replace(/^\d{3}\b\s*[-:–]?\s*/, '');
  return [inner('title'), inner('h1'), body].map(words).find((w) => w !== '')?.slice(0, 200) ?? '';
}

/** Reads `error`/`message` from a JSON error body; an HTML page yields its title (see {@link htmlErrorText}), any other body its first 200 characters. */
export function parseErrorBody(text: string): { error?: string; apiMessage?: string; requestId?: string; sessionId?: string; fromApi: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (parsed.success && parsed.data.error !== undefined) {
    return { error: parsed.data.error, apiMessage: parsed.data.message, requestId: parsed.data.request_id, sessionId: parsed.data.session_id, fromApi: true };
  }
  const snippet = htmlErrorText(text) ?? text.trim().slice(0, 200);
  return { error: snippet === '' ? undefined : snippet, apiMessage: parsed.success ? parsed.data.message : undefined, fromApi: false };
}

/**
 * `Retry-After` as milliseconds (delta-seconds or HTTP date), else undefined.
 * The spec shows no 429 headers (§7 rule 4): honour the header when present, otherwise leave the wait to the caller.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface HttpFailure {
  status: number;
  endpoint: string;
  bodyText: string;
  retryAfter?: string | string[];
  scrub: (text: string) => string;
}

/** The error class of a status (and the API's `error` string, which tells an unknown site from other 404s). */
function errorClassFor(status: number, error: string | undefined): ErrorClass {
  if (status === 404 && error === SITE_NOT_FOUND) return SiteNotFoundError;
  return BY_STATUS[status]?.cls ?? (status >= 500 && status <= 599 ? InternalServerError : UnexpectedStatusError);
}

/** The class name an error of this status gets (`AuthenticationError` for a 401), for rows recorded without one. */
export function errorTypeForStatus(status: number, error?: string): string {
  return errorClassFor(status, error).name;
}

/**
 * What a status means and what to do, from the status, the API's `error` string and (when known) the endpoint: one
 * table for the errors' messages and for the cause line of the terminal and the reports.
 */
export function hintFor(status: number, error?: string, endpoint?: string): Hint {
  if (status === 409 && endpoint !== undefined && /\/chat(\/async)?$/.test(endpoint)) return HINT_CHAT_409;
  if (status === 404 && error !== undefined) {
    if (/\bsite\b/i.test(error)) return HINT_SITE_404;
    if (/\brequest\b/i.test(error)) return HINT_REQUEST_404;
  }
  return BY_STATUS[status]?.hint ?? (status >= 500 && status <= 599 ? HINT_5XX : HINT_OTHER);
}

/** Builds the error for a non-2xx response, e.g. `401 invalid_api_key from GET /m2m/…: … — check SITECHAT_API_KEY`. */
export function errorFromResponse(f: HttpFailure): SiteChatError {
  const body = parseErrorBody(f.bodyText);
  const error = body.error === undefined ? undefined : f.scrub(body.error);
  const apiMessage = body.apiMessage === undefined ? undefined : f.scrub(body.apiMessage);
  const cls = errorClassFor(f.status, error);
  const hint = hintFor(f.status, error, f.endpoint);
  const retryAfterMs = f.status === 429 ? parseRetryAfter(f.retryAfter) : undefined;
  const head = `${f.status}${error === undefined ? '' : ` ${error}`} from ${f.endpoint}`;
  const said = apiMessage === undefined ? '' : ` (API: ${JSON.stringify(apiMessage)})`;
  const wait = retryAfterMs === undefined ? '' : ` (Retry-After: ${retryAfterMs} ms)`;
  const message = `${head}: ${hint.what}${said} — ${hint.next}${wait}`;
  const init = { endpoint: f.endpoint, status: f.status, error, apiMessage, requestId: body.requestId, sessionId: body.sessionId, apiErrorBody: body.fromApi };
  return cls === RateLimitError ? new RateLimitError(message, { ...init, retryAfterMs }) : new cls(message, init);
}

const TIMEOUT_CODES: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: 'no connection',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers',
  UND_ERR_BODY_TIMEOUT: 'no response body data',
};

/** Wraps a dispatcher failure (no HTTP response) in an {@link APIConnectionError}. */
export function connectionError(
  cause: unknown,
  ctx: { endpoint: string; origin: string; timeoutMs: { connect: number; headers: number; body: number } },
): APIConnectionError {
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const what = code === undefined ? undefined : TIMEOUT_CODES[code];
  if (what !== undefined) {
    const ms = code === 'UND_ERR_CONNECT_TIMEOUT' ? ctx.timeoutMs.connect : code === 'UND_ERR_HEADERS_TIMEOUT' ? ctx.timeoutMs.headers : ctx.timeoutMs.body;
    return new APIConnectionTimeoutError(
      `${what} from ${ctx.origin} within ${ms} ms for ${ctx.endpoint} — the service is slow or unreachable; retry, or raise the client timeout`,
      { endpoint: ctx.endpoint, cause },
    );
  }
  const reason = code ?? (cause instanceof Error ? cause.message : String(cause));
  return new APIConnectionError(
    `could not reach ${ctx.origin} for ${ctx.endpoint} (${reason}) — check SITECHAT_BASE_URL and that the service is running and reachable`,
    { endpoint: ctx.endpoint, cause },
  );
}
