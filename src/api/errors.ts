/**
 * Error hierarchy of the Site Chat client, one class per status family (openai-node style).
 *
 * Every class sets `name` to its own class name because Temporal uses `error.name` as the failure
 * type: activity retry policies list {@link NON_RETRYABLE_ERROR_TYPES}. No field ever holds the
 * API key; text that echoes server content is scrubbed before an error is built.
 */

/** Fields shared by all Site Chat errors. */
export interface SiteChatErrorInit {
  /** Method and path template, e.g. `GET /m2m/sites/{site_id}/sessions` (never ids or the key). */
  endpoint?: string;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** The API's `error` string, or the first 200 characters of a non-JSON body. */
  error?: string;
  /** The API's `message` string (403 bodies carry one). */
  apiMessage?: string;
  /** Request and session ids, when an error body names them (a sync chat that hit its ceiling). */
  requestId?: string;
  sessionId?: string;
  /**
   * The body was the API's own JSON error (an object with an `error` string), not a proxy's HTML page, another body
   * or none: the service itself said what went wrong.
   */
  apiErrorBody?: boolean;
  cause?: unknown;
}

export class SiteChatError extends Error {
  override name = 'SiteChatError';
  /** Whether the same request may succeed when retried with backoff. */
  readonly retryable: boolean = false;
  readonly endpoint?: string;
  readonly status?: number;
  readonly error?: string;
  readonly apiMessage?: string;
  readonly requestId?: string;
  readonly sessionId?: string;
  readonly apiErrorBody: boolean;

  constructor(message: string, init: SiteChatErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.error = init.error;
    this.apiMessage = init.apiMessage;
    this.requestId = init.requestId;
    this.sessionId = init.sessionId;
    this.apiErrorBody = init.apiErrorBody ?? false;
  }

  toJSON(): Record<string, unknown> {
    const { name, message, status, error, apiMessage, retryable, endpoint } = this;
    return { name, message, status, error, apiMessage, retryable, endpoint };
  }
}

/** 400: the request is invalid; retrying it unchanged fails again. */
export class BadRequestError extends SiteChatError {
  override name = 'BadRequestError';
}

/** 401 `invalid_api_key`: key missing, invalid, expired, revoked or of another tenant. */
export class AuthenticationError extends SiteChatError {
  override name = 'AuthenticationError';
}

/** 403 `api_access_not_available_on_plan`: the tenant's plan lacks M2M API access. */
export class PermissionDeniedError extends SiteChatError {
  override name = 'PermissionDeniedError';
}

/** 404: unknown site (or another tenant's) or unknown / expired request. */
export class NotFoundError extends SiteChatError {
  override name = 'NotFoundError';
}

/**
 * 404 whose `error` is `site not found` (spec §7): the site does not exist or belongs to another tenant. No row of
 * a run can recover from it, so a run stops on it at once. Still a {@link NotFoundError}.
 */
export class SiteNotFoundError extends NotFoundError {
  override name = 'SiteNotFoundError';
}

/** The API's `error` string for an unknown site (spec §7). */
export const SITE_NOT_FOUND = 'site not found';

/** 409: feedback on a request that is not completed (spec §7); from a server that refuses chat in a closed session, that chat. */
export class ConflictError extends SiteChatError {
  override name = 'ConflictError';
}

/**
 * 408: the server (or a proxy in front of it) did not receive the whole request in time, so it did not act on it.
 * Not in the spec's §7; retryable, as in most HTTP clients: the request is sent again unchanged, and an ask counts it
 * as refused (nothing was created), not as a possible second question.
 */
export class RequestTimeoutError extends SiteChatError {
  override name = 'RequestTimeoutError';
  override readonly retryable: boolean = true;
}

/** Statuses the spec does not list (3xx, 413, 422 …): not retryable, usually a wrong base URL or proxy. */
export class UnexpectedStatusError extends SiteChatError {
  override name = 'UnexpectedStatusError';
}

/** 429: rate limit (5 requests/s per client IP and path). */
export class RateLimitError extends SiteChatError {
  override name = 'RateLimitError';
  override readonly retryable: boolean = true;
  /** From a `Retry-After` header, when the server sends one (the spec does not show any 429 headers). */
  readonly retryAfterMs?: number;

  constructor(message: string, init: SiteChatErrorInit & { retryAfterMs?: number } = {}) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}

/** 5xx: the service or one of its dependencies failed. */
export class InternalServerError extends SiteChatError {
  override name = 'InternalServerError';
  override readonly retryable: boolean = true;
}

/** No HTTP response: connection refused or reset, DNS failure, socket closed. */
export class APIConnectionError extends SiteChatError {
  override name = 'APIConnectionError';
  override readonly retryable: boolean = true;
}

/** No connection, headers or body within the configured timeout. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
}

/** One field-level problem found by a zod schema. */
export interface ValidationIssue {
  /** Field path such as `sessions[0].closed_at`, or `(body)` for the whole body. */
  path: string;
  message: string;
}

/** A 2xx response whose body is not JSON or breaks the spec's shape. */
export class ResponseValidationError extends SiteChatError {
  override name = 'ResponseValidationError';
  /** Path of the first offending field. */
  readonly fieldPath: string;
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, init: SiteChatErrorInit & { issues: readonly ValidationIssue[] }) {
    super(message, init);
    this.issues = init.issues;
    this.fieldPath = init.issues[0]?.path ?? '(body)';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), fieldPath: this.fieldPath, issues: this.issues };
  }
}

/** A request rejected by the client before sending (bad body, query or path parameter). */
export class RequestValidationError extends ResponseValidationError {
  override name = 'RequestValidationError';
}

/** Invalid client options (base URL, key, timeouts). */
export class ConfigurationError extends SiteChatError {
  override name = 'ConfigurationError';
}

/**
 * Error types Temporal must not retry (`nonRetryableErrorTypes` of activity retry policies).
 * Exactly the classes whose `retryable` is false.
 */
export const NON_RETRYABLE_ERROR_TYPES: readonly string[] = Object.freeze([
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'SiteNotFoundError',
  'ConflictError',
  'UnexpectedStatusError',
  'ResponseValidationError',
  'RequestValidationError',
  'ConfigurationError',
]);
