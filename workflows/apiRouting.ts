import { ActivityFailure, ApplicationFailure, sleep } from '@temporalio/workflow';
import type { ApiIdentity } from '../src/api/identity';
import { WRONG_API_ERROR, type WrongApiDetails } from '../src/temporal/wrongApi';

/**
 * How many times a call that workers of another API refused is scheduled again before the run gives up on it, and
 * the pause between two. A task goes to whichever worker of the namespace polls first, so with one worker of each
 * API a call meets the wrong one about every other time: 20 refusals in a row are a one-in-a-million chance then,
 * and with no worker of the run's API at all the run learns so in about half a minute.
 */
const WRONG_API_TRIES = 20;
const WRONG_API_PAUSE_MS = 1000;

/** The refusal of a first attempt by a worker of another API (`refusal` in src/worker/apiGuard.ts), if `err` is one. */
function firstAttemptRefusal(err: unknown): WrongApiDetails | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== WRONG_API_ERROR || !cause.nonRetryable) return undefined;
  return cause.details?.[0] as WrongApiDetails | undefined;
}

/** A call refused by workers of another API, scheduled again until a worker of the run's API takes it. */
async function onRunApi<T>(call: () => Promise<T>): Promise<T> {
  for (let refusals = 1; ; refusals++) {
    try {
      return await call();
    } catch (err) {
      const refused = firstAttemptRefusal(err);
      if (!refused) throw err;
      if (refusals >= WRONG_API_TRIES) {
        throw ApplicationFailure.nonRetryable(
          `no worker of the run's API (${refused.runApi}) took the call: workers asking ${refused.workerApi} refused it ${refusals} times. ` +
          `Run workers with SITECHAT_BASE_URL for ${refused.runApi} on this Temporal namespace, and stop the others (docs/deployment.md, "One run, one API")`,
          WRONG_API_ERROR, refused,
        );
      }
      await sleep(WRONG_API_PAUSE_MS);
    }
  }
}

/**
 * The activities of a run that asks `api`: each call carries the API in its input (a worker of another API refuses
 * it before it starts) and is scheduled again when refused. Without `api` (a cleanup or a review's feedback started
 * without one), the activities as they are: any worker takes them.
 */
export function onApi<A extends object>(activities: A, api: ApiIdentity | undefined): A {
  if (api === undefined) return activities;
  return new Proxy(activities, {
    get(target, name, receiver) {
      const fn = Reflect.get(target, name, receiver) as unknown;
      if (typeof fn !== 'function') return fn;
      return (arg: unknown, ...rest: unknown[]) => onRunApi(() => (fn as (...args: unknown[]) => Promise<unknown>)({ ...(arg as object), api }, ...rest));
    },
  });
}
