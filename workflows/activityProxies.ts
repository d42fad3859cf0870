import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { RunActivities } from '../activities';
import { NON_RETRYABLE_ERROR_TYPES } from '../src/api/errors';
import { NON_RETRYABLE_JUDGE_ERRORS } from '../src/grading/judge/errors';
import type { ApiIdentity } from '../src/api/identity';
import { TaskQueue } from '../src/temporal/taskQueues';
import { onApi } from './apiRouting';

// The workflows' handles on the activities: one proxy per kind of work, with its task queue, timeouts and retry policy.

/**
 * Spec §7: 4xx other than 429 are not retryable; 429, 5xx and network errors back off exponentially
 * (1 s, 2 s, 4 s, 8 s …) with a bounded number of attempts. A 429 waits at least 1 s: the initial interval.
 */
const apiRetry: ActivityOptions['retry'] = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '30s',
  maximumAttempts: 6,
  nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
};

/**
 * Work on the main queue: plans, records, reports. No attempt limit here: a results store that cannot be reached is
 * waited out (a 30 s database restart must not fail a run), for SITECHAT_STORE_OUTAGE_LIMIT; the worker makes every
 * other error final after a few attempts (activities/storeOutage.ts). Pauses stay short so rows flow again soon
 * after the store is back.
 */
const localRetry: ActivityOptions['retry'] = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  nonRetryableErrorTypes: ['DatasetValidationError', 'DatasetChangedError', 'ConfigurationError', 'CustomGraderError'],
};

/**
 * Local work that grows with the dataset or waits on user code: planning, pages, skipped pages, reports, custom
 * graders. These heartbeat every few seconds while they work (activities/heartbeat.ts), so a worker that dies
 * mid-activity is noticed after the heartbeat timeout and another worker retries at once; the start-to-close
 * timeout only bounds work that never ends.
 */
export const localWork = proxyActivities<RunActivities>({
  taskQueue: TaskQueue.main,
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '20s',
  retry: localRetry,
});

/** Local work of a few files or rows at most (records, judge cache lookups, reports of a few files): a short timeout. */
export const local = proxyActivities<RunActivities>({
  taskQueue: TaskQueue.main,
  startToCloseTimeout: '30s',
  retry: localRetry,
});

/**
 * LLM judge calls, one per activity. 429, 5xx and network errors back off 1 s, 2 s, 4 s … (a 429's Retry-After wins);
 * the worker ends the retries itself after SITECHAT_JUDGE_MAX_ATTEMPTS (its failure is then non-retryable), so this
 * policy's attempts are only a backstop. Bad requests, keys, URLs and models are not retried.
 */
export const judging = proxyActivities<RunActivities>({
  taskQueue: TaskQueue.judge,
  // Covers the worker's call timeout (SITECHAT_JUDGE_TIMEOUT_MS, 60 s by default) with room to spare.
  startToCloseTimeout: '5 minutes',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    maximumAttempts: 20,
    nonRetryableErrorTypes: [...NON_RETRYABLE_JUDGE_ERRORS],
  },
});

/**
 * Every call of a rate-limited path carries its site as fairness key: the server gives each site its own budget on
 * the queue (`configureQueueBudgets`), so sites do not slow each other, and one activity attempt is one API call.
 */
function forSite(siteId: string): Pick<ActivityOptions, 'priority'> {
  return { priority: { fairnessKey: siteId } };
}

/**
 * Every proxy below calls the API. `api`: the API of the run (`RunOptions.api`); each call then carries it, only a
 * worker of that API runs it, and a call refused by a worker of another is scheduled again (workflows/apiRouting.ts).
 */

/** Session list (preflight and cleanup): one GET per activity. */
export function listing(siteId: string, api?: ApiIdentity): RunActivities {
  return onApi(proxyActivities<RunActivities>({ ...forSite(siteId), taskQueue: TaskQueue.list, startToCloseTimeout: '1 minute', retry: apiRetry }), api);
}

/** Cleanup's close batches (paced per host, each close retried in place); runs close one session per activity. */
export function closingBatches(siteId: string, api?: ApiIdentity): RunActivities {
  return onApi(proxyActivities<RunActivities>({
    ...forSite(siteId), taskQueue: TaskQueue.close, startToCloseTimeout: '5 minutes', heartbeatTimeout: '30s', retry: apiRetry,
  }), api);
}

/**
 * How long a feedback or close call keeps being retried on 429, 5xx and network errors before the row (or session)
 * is recorded as failed with the last error: an API down for this long is an outage to report, not to wait out.
 */
export const SIDE_EFFECT_DEADLINE = '1 hour';

/**
 * Feedback and closes (`settle`): at most one call per path per attempt, retried by this policy until they succeed,
 * meet a non-retryable answer (4xx other than 429, returned as the result), or run past {@link SIDE_EFFECT_DEADLINE}.
 * A 429's Retry-After sets the next delay. On the feedback queue, with the site as fairness key.
 */
export function settling(siteId: string, api?: ApiIdentity): RunActivities {
  return onApi(proxyActivities<RunActivities>({
    ...forSite(siteId),
    taskQueue: TaskQueue.feedback,
    // A call waits for its site's window on the host (a few seconds at most when the site is busy) and its response.
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: SIDE_EFFECT_DEADLINE,
    // No maximumAttempts: unlimited, bounded by the schedule-to-close deadline.
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES] },
  }), api);
}

/**
 * A batch of finished rows (`settleRows`): its feedback, closes and records, on the feedback queue like `settle`, with
 * the same deadline and retries. A batch takes a few seconds (its calls wait for the site's window), so it heartbeats
 * once it has taken 10 s: a worker that dies mid-batch is noticed after the heartbeat timeout, not after the
 * start-to-close timeout, and a batch that ends sooner (nearly all) sends no heartbeat (they are billed).
 */
export function settlingBatches(siteId: string, api?: ApiIdentity): RunActivities {
  return onApi(proxyActivities<RunActivities>({
    ...forSite(siteId),
    taskQueue: TaskQueue.feedback,
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: '20s',
    scheduleToCloseTimeout: SIDE_EFFECT_DEADLINE,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES] },
  }), api);
}

/**
 * Submit + poll in one activity. Its heartbeat and the results store carry the request id, so a retry after a worker
 * crash resumes polling instead of asking twice; the heartbeat timeout is how fast a crash is noticed. 60 s: the ask
 * heartbeats only once its answer has taken half of it (30 s), and the real service's answers (5–30 s) nearly all
 * come sooner, so they cost no heartbeat (each is a billed action); a dead worker's asks are picked up after at most
 * 60 s, by polling the request they had sent. The timeout is an attribute of the schedule command, not a new command:
 * replay does not compare it.
 */
export function asking(answerTimeoutMs: number, siteId: string, api?: ApiIdentity): RunActivities {
  return onApi(proxyActivities<RunActivities>({
    ...forSite(siteId),
    taskQueue: TaskQueue.submit,
    // The activity stops itself at the answer timeout; this is the backstop.
    startToCloseTimeout: answerTimeoutMs + 120_000,
    heartbeatTimeout: '60s',
    retry: apiRetry,
  }), api);
}
