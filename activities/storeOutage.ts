import { ApplicationFailure, CancelledFailure, Context, type Info } from '@temporalio/activity';
import { STORE_WAIT_FIELD, StoreUnavailableError, type StoreWait } from '../src/store/errors';
import { TaskQueue } from '../src/temporal/taskQueues';
import { doubling, retry } from '../src/shared/retry';

/**
 * Attempts of work on the main queue (plans, records, reports) for errors other than a store outage. Its retry
 * policy has no attempt limit so that an outage can be waited out; this bounds everything else (a bug, a full disk).
 */
export const LOCAL_MAX_ATTEMPTS = 5;

/** The longest pause between two tries of a store write inside an activity: well inside a 20 s heartbeat timeout. */
const MAX_STORE_RETRY_DELAY_MS = 5_000;

function formatLimit(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

/**
 * What an activity's error becomes for Temporal's retry policy:
 * - a store that cannot be reached is retryable for `limitMs` after the activity was first scheduled, then final;
 * - other errors of main-queue work are final from attempt {@link LOCAL_MAX_ATTEMPTS} on;
 * - anything else (cancellation, API failures with their own policies) is left as it is.
 */
export function failureForRetry(err: unknown, info: Pick<Info, 'attempt' | 'scheduledTimestampMs' | 'taskQueue'>, limitMs: number, now = Date.now()): unknown {
  if (err instanceof CancelledFailure) return err;
  if (err instanceof StoreUnavailableError) {
    const waited = now - info.scheduledTimestampMs;
    if (waited < limitMs) return ApplicationFailure.retryable(`${err.message} — waiting for it (since ${new Date(info.scheduledTimestampMs).toISOString()})`, err.name);
    return ApplicationFailure.nonRetryable(`${err.message} — still unreachable after ${formatLimit(limitMs)} (SITECHAT_STORE_OUTAGE_LIMIT)`, err.name);
  }
  if (info.taskQueue !== TaskQueue.main || info.attempt < LOCAL_MAX_ATTEMPTS) return err;
  if (err instanceof ApplicationFailure) {
    if (err.nonRetryable) return err;
    return ApplicationFailure.create({ message: err.message, type: err.type ?? undefined, details: err.details ?? undefined, nonRetryable: true });
  }
  if (err instanceof Error) return ApplicationFailure.create({ message: err.message, type: err.name, nonRetryable: true });
  return err;
}

/** The same activities, their errors passed through {@link failureForRetry}. */
export function waitingOutStoreOutages<A extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: A, limitMs: number): A {
  const wrapped: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (...args) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw failureForRetry(err, Context.current().info, limitMs);
      }
    };
  }
  return wrapped as A;
}

/**
 * Runs a store operation, trying again in place while the store cannot be reached (heartbeating, so the activity
 * is not taken for dead, and stopping when it is cancelled) for up to `limitMs` after the activity was first
 * scheduled. For activities whose own retry would cost more than waiting: an ask must not send its question again.
 * `heartbeat` gets what the activity waits for, to put in its heartbeat details: a wait in place fails no attempt,
 * so the details are where `sitechat run` sees it (src/cli/follow/storeOutage.ts).
 */
export async function withStoreRetry<T>(op: () => Promise<T>, limitMs: number, heartbeat: (wait: StoreWait) => void): Promise<T> {
  const ctx = Context.current();
  // What is left of the limit when an attempt failed: past it, the error goes to `failureForRetry`, which makes it final.
  let left = 0;
  return retry(op, {
    retryable: (err) => {
      left = limitMs - (Date.now() - ctx.info.scheduledTimestampMs);
      return err instanceof StoreUnavailableError && left > 0;
    },
    delayMs: (_err, attempt) => Math.min(doubling(250, attempt, MAX_STORE_RETRY_DELAY_MS), left),
    beforeWait: (err) => heartbeat({ [STORE_WAIT_FIELD]: (err as StoreUnavailableError).message }),
    sleep: (ms) => ctx.sleep(ms),
  });
}
