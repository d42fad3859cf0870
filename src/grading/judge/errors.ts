/**
 * Errors of the LLM judge, one class per way a judgement can fail. `name` is the class name because Temporal
 * uses it as the failure type (retry policies list the non-retryable ones). No message ever holds the judge key:
 * text that may echo server content is scrubbed before an error is built.
 */

export class JudgeError extends Error {
  override name = 'JudgeError';
  /** Whether the same request may succeed when retried with backoff. */
  readonly retryable: boolean = false;
  constructor(message: string, readonly status?: number, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Missing or invalid judge settings (`SITECHAT_JUDGE_*`), or a judge assertion without a judge configured. */
export class JudgeConfigError extends JudgeError {
  override name = 'JudgeConfigError';
}

/** 400/401/403/404/422 …: the request, key, model or URL is wrong; retrying it unchanged fails again. */
export class JudgeRequestError extends JudgeError {
  override name = 'JudgeRequestError';
}

/** 429: the provider's rate or token limit. */
export class JudgeRateLimitError extends JudgeError {
  override name = 'JudgeRateLimitError';
  override readonly retryable: boolean = true;
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message, 429);
  }
}

/** 5xx: the provider failed. */
export class JudgeServerError extends JudgeError {
  override name = 'JudgeServerError';
  override readonly retryable: boolean = true;
}

/**
 * No complete response: connection refused, DNS failure, a connection reset before the reply ended, or no whole
 * reply within SITECHAT_JUDGE_TIMEOUT_MS.
 */
export class JudgeConnectionError extends JudgeError {
  override name = 'JudgeConnectionError';
  override readonly retryable: boolean = true;
}

/**
 * The server answered 2xx, but not with a chat completion: no body, a body that is not JSON, JSON without
 * `choices[0].message`. A proxy in trouble does this, and so does a base URL that points at some other web server;
 * retried like a 5xx, within SITECHAT_JUDGE_MAX_ATTEMPTS.
 */
export class JudgeResponseError extends JudgeError {
  override name = 'JudgeResponseError';
  override readonly retryable: boolean = true;
}

/**
 * The model answered, but not with `{"verdict": "pass"|"fail", "reason": "…"}`. A sampled model may do better on a
 * second try, so it is retried, but only a couple of times ({@link JUDGE_OUTPUT_ATTEMPTS}).
 */
export class JudgeOutputError extends JudgeError {
  override name = 'JudgeOutputError';
  override readonly retryable: boolean = true;
  constructor(message: string, readonly output: string) {
    super(message);
  }
}

/** Attempts at one request whose replies do not parse before the row is given up as `error`. */
export const JUDGE_OUTPUT_ATTEMPTS = 2;

/** Judge error types Temporal must not retry. */
export const NON_RETRYABLE_JUDGE_ERRORS: readonly string[] = Object.freeze(['JudgeConfigError', 'JudgeRequestError', 'JudgeError']);
