import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { ApiIdentity } from '../api/identity';
import { WRONG_API_ERROR, type WrongApiDetails } from '../temporal/wrongApi';

/** The run's API of an activity's input (`api`, set by the workflow on every call of a run that names one), if any. */
export function runApiOf(arg: unknown): ApiIdentity | undefined {
  return typeof arg === 'object' && arg !== null && 'api' in arg && typeof arg.api === 'string' ? arg.api : undefined;
}

/**
 * The refusal of a task whose run asks `runApi` by a worker that asks `workerApi`, or undefined when they are the same
 * API (or the run names none: runs started before runs carried it). Nothing was sent: the worker refuses before the
 * activity runs.
 *
 * A first attempt is refused for good (non-retryable): the workflow schedules the call again, a fresh activity whose
 * attempts are all still to come, for a worker of the run's API to take (or gives up after a while, saying so). A
 * later attempt is retryable instead, so that the call keeps what its earlier attempts left for it (an ask's request
 * id, a batch's marks); it costs that attempt.
 */
export function refusal(runApi: ApiIdentity | undefined, workerApi: ApiIdentity, attempt: number, what: string): ApplicationFailure | undefined {
  if (runApi === undefined || runApi === workerApi) return undefined;
  const details: WrongApiDetails = { runApi, workerApi };
  return ApplicationFailure.create({
    type: WRONG_API_ERROR,
    message: `${what}: the run asks ${runApi}, this worker asks ${workerApi}; refused, nothing sent (every worker that polls this Temporal namespace must ask the run's API)`,
    nonRetryable: attempt <= 1,
    details: [details],
  });
}

/** Runs whose refusal this worker has logged already (one warning per run, not one per row). */
const LOGGED_RUNS_MAX = 1000;

/**
 * Every activity of a run that names its API (`api` in the input) runs only on a worker of that API; a worker of
 * another refuses it before it starts (`refusal`) and logs it once per run. A task queue is shared by every worker
 * of a namespace, so this is what keeps one run on one API when workers of two meet there (docs/deployment.md, "One
 * run, one API").
 */
export function refuseOtherApis(workerApi: ApiIdentity, warn: (message: string) => void): ActivityInterceptorsFactory {
  const logged = new Set<string>();
  return (ctx) => ({
    inbound: {
      execute: (input, next) => {
        const { info } = ctx;
        const workflowId = info.workflowExecution?.workflowId ?? 'a workflow';
        const refused = refusal(runApiOf(input.args[0]), workerApi, info.attempt, `${info.activityType} of ${workflowId}`);
        if (!refused) return next(input);
        const run = workflowId.replace(/\/chunk-\d+$/u, '');
        if (!logged.has(run)) {
          if (logged.size >= LOGGED_RUNS_MAX) logged.clear();
          logged.add(run);
          warn(`${run}: ${refused.message}`);
        }
        throw refused;
      },
    },
  });
}
