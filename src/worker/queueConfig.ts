import type { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { RATE_LIMITED_QUEUES } from '../temporal/taskQueues';
import type { WorkerConfig } from '../temporal/workerConfig';

/** What the server was told, for the worker's log. */
export interface QueueBudget {
  /** Requests per second each site may be sent cluster-wide on each rate-limited queue; 0 when limits are off. */
  perSite: number;
  /** Sites with a budget of their own (fairness weight = their rate / `ratePerSecond`). */
  weights: Record<string, number>;
}

/** The per-site budget the cluster may spend: the API's rate once per egress IP. */
export function queueBudget(config: Pick<WorkerConfig, 'ratePerSecond' | 'egressIps' | 'siteRates'>): QueueBudget {
  if (config.ratePerSecond <= 0) return { perSite: 0, weights: {} };
  const weights = Object.fromEntries(Object.entries(config.siteRates).map(([site, rate]) => [site, rate / config.ratePerSecond]));
  return { perSite: config.ratePerSecond * config.egressIps, weights };
}

/**
 * Gives each site its own cluster-wide budget on the rate-limited activity queues. Activities there carry the site
 * as fairness key, so the server dispatches each site's calls at most at `perSite` per second (scaled by its weight)
 * and a busy site's backlog never holds the worker slots another site needs. There is no queue-wide limit: sites do
 * not slow each other. The server's limit is a token bucket with a burst, so it spreads the work; the exact budget
 * per host is the pacer's (`HostPacer`).
 *
 * Idempotent: every worker sets the same values at start. Needs fairness enabled on the server
 * (`matching.enableFairness`, docs/deployment.md); without it the keys and limits are ignored and the pacer alone
 * keeps each host within the budget.
 */
export async function configureQueueBudgets(connection: NativeConnection, namespace: string, config: WorkerConfig, identity: string): Promise<QueueBudget> {
  const budget = queueBudget(config);
  const rateLimit = budget.perSite > 0 ? { rateLimit: { requestsPerSecond: budget.perSite }, reason: 'sitechat: API budget per site' } : {};
  for (const taskQueue of RATE_LIMITED_QUEUES) {
    await connection.workflowService.updateTaskQueueConfig({
      namespace,
      identity,
      taskQueue,
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      // No queue-wide limit (a RateLimitUpdate without a limit removes it): one site must not cap another.
      updateQueueRateLimit: {},
      updateFairnessKeyRateLimitDefault: rateLimit,
      setFairnessWeightOverrides: budget.weights,
    });
  }
  return budget;
}
