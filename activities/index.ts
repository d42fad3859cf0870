import { SiteChatClient } from '../src/api';
import { LimiterPool } from '../src/ratelimit/slidingWindow';
import { FileResultsStore } from '../src/reports';
import type { WorkerConfig } from '../src/temporal/workerConfig';
import { askActivity } from './ask';
import { cleanupActivities } from './cleanup';
import type { ActivityDeps } from './deps';
import { finalizeActivities } from './finalize';
import { finishActivities } from './finish';
import { gradeActivities } from './grade';
import { planActivities } from './plan';
import { ResumeIndex } from './resume';
import { sessionActivities } from './sessions';

export type { ActivityDeps } from './deps';

function buildActivities(deps: ActivityDeps) {
  return {
    ask: askActivity(deps),
    ...planActivities(deps),
    ...sessionActivities(deps),
    ...finishActivities(deps),
    ...finalizeActivities(deps),
    ...gradeActivities(),
    ...cleanupActivities(deps),
  };
}

/** Every activity of the runner; workflows import this *type* only. */
export type RunActivities = ReturnType<typeof buildActivities>;

/**
 * Builds the activities from the worker's configuration. The API key goes into the HTTP client here and
 * nowhere else: activities receive site ids, never keys.
 */
export function createActivities(config: WorkerConfig, overrides: Partial<ActivityDeps> = {}): { activities: RunActivities; close: () => Promise<void> } {
  const api = overrides.api ?? new SiteChatClient({ baseUrl: config.baseUrl, apiKey: config.apiKey });
  const store = overrides.store ?? new FileResultsStore(config.runsDir);
  const deps: ActivityDeps = {
    api,
    store,
    resume: overrides.resume ?? new ResumeIndex(store),
    limiter: overrides.limiter ?? new LimiterPool(config.ratePerSecond),
    runsDir: overrides.runsDir ?? config.runsDir,
    pollIntervalMs: overrides.pollIntervalMs ?? config.pollIntervalMs,
    firstPollDelayMs: overrides.firstPollDelayMs ?? config.pollIntervalMs,
  };
  return { activities: buildActivities(deps), close: () => (overrides.api ? Promise.resolve() : api.close()) };
}
