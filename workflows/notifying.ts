import { proxyActivities } from '@temporalio/workflow';
import type { RunActivities } from '../activities';
import type { NotifySubject } from '../activities/notify';
import { NOTIFY_MAX_ATTEMPTS } from '../src/notify/policy';
import { destinationLabel, hasDestinations, type NotifyOutcome, type NotifySpec } from '../src/domain/notify';
import { TaskQueue } from '../src/temporal/taskQueues';
import { describeFailure } from './activityFailure';

/**
 * The notify activity: one HTTP call per destination and attempt (30 s at most), heartbeating every 2 s so a worker
 * that dies mid-send is noticed within 10 s and another worker retries with the same delivery id. 429, 5xx and
 * network errors back off 2 s, 4 s, 8 s … (a receiver's Retry-After wins, up to 5 min); the activity records the
 * last attempt's failure itself, so the policy's attempt limit is only reached when workers keep dying.
 */
const notifying = proxyActivities<RunActivities>({
  taskQueue: TaskQueue.main,
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: NOTIFY_MAX_ATTEMPTS },
});

/**
 * Notifies the run's destinations that it ended, when it has any. Never throws: a notification that could not be
 * delivered is an outcome to show, not a reason to fail the run or change its verdict.
 */
export async function notifyEnd(spec: NotifySpec | undefined, subject: NotifySubject): Promise<NotifyOutcome[] | undefined> {
  if (!hasDestinations(spec)) return undefined;
  try {
    return await notifying.notify({ spec, subject });
  } catch (err) {
    const { message } = describeFailure(err);
    return spec.destinations.map((d): NotifyOutcome => ({ destination: destinationLabel(d), kind: d.kind, status: 'failed', error: message }));
  }
}
