import { ApplicationFailure } from '@temporalio/activity';
import { RateLimitError, SiteChatError } from '../src/api/errors';

/**
 * Client errors become Temporal failures whose type is the class name (so retry policies can list the
 * non-retryable ones) and whose details keep the HTTP status and the API's `error` string. The message comes
 * from the client, which never puts the API key in it.
 */
export function toFailure(err: unknown): unknown {
  if (!(err instanceof SiteChatError)) return err;
  return ApplicationFailure.create({
    message: err.message,
    type: err.name,
    nonRetryable: !err.retryable,
    details: [{ status: err.status, error: err.error }],
    // The spec shows no 429 headers; if the server sends Retry-After anyway, honour it (at least 1 s, §8).
    nextRetryDelay: err instanceof RateLimitError && err.retryAfterMs ? Math.max(1000, err.retryAfterMs) : undefined,
  });
}

/** Runs `fn`, rethrowing client errors as typed Temporal failures. */
export async function asFailure<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toFailure(err);
  }
}

/** Short text for a result row: "409 feedback can only be submitted for completed responses". */
export function shortError(err: unknown): string {
  if (err instanceof SiteChatError) return err.status ? `${err.status} ${err.error ?? err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
}
