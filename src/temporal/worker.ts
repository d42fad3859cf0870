import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { JUDGE_DEFAULTS } from '../grading/judge/settings';
import { RATE_LIMITED_QUEUES, TaskQueue } from './taskQueues';
import type { WorkerConfig } from './workerConfig';

export interface WorkersOptions {
  connection: NativeConnection;
  namespace?: string;
  config: WorkerConfig;
  /** Reuse a bundle across workers of one process (bundling takes seconds). @default the prebuilt one, else bundled now */
  workflowBundle?: WorkflowBundleWithSourceMap | { codePath: string };
  /** Extra dependencies for the activities (tests inject a dispatcher through the client). */
  deps?: Partial<ActivityDeps>;
  /** Which queues to poll. @default all of them */
  queues?: readonly string[];
}

export interface RunningWorkers {
  /** Resolves when every worker has stopped. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The judge provider counts requests per minute; a judge activity makes one call per attempt, so RPM / 60 per second
 * as task-queue limit (cluster-wide) and worker limit keeps every worker and retry inside the budget.
 */
function judgeLimits(config: WorkerConfig): Pick<WorkerOptions, 'maxTaskQueueActivitiesPerSecond' | 'maxActivitiesPerSecond'> {
  const rpm = config.judge?.rpm ?? JUDGE_DEFAULTS.rpm;
  if (rpm <= 0) return {};
  return { maxTaskQueueActivitiesPerSecond: rpm / 60, maxActivitiesPerSecond: rpm / 60 };
}

export function workflowsPath(): string {
  // dist/src/temporal → dist/workflows, src/temporal → workflows (index.ts under vitest)
  return join(__dirname, '..', '..', 'workflows');
}

/** dist/workflow-bundle.js, written by `npm run build` (scripts/bundle-workflows.ts). */
export function prebuiltBundlePath(): string {
  return join(__dirname, '..', '..', 'workflow-bundle.js');
}

/** The build's bundle when running from dist/, else a fresh one (tests run the sources, which may be newer). */
async function workflowBundleFor(): Promise<WorkflowBundleWithSourceMap | { codePath: string }> {
  const prebuilt = prebuiltBundlePath();
  return __filename.endsWith('.js') && existsSync(prebuilt) ? { codePath: prebuilt } : bundleWorkflows();
}

export function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietBundlerLogger });
}

const noop = (): void => undefined;
const quietBundlerLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

/**
 * One worker per task queue, sharing a connection and one set of activities. Rate-limited queues get the API's
 * budget as a task-queue limit (cluster-wide) and as a per-worker limit (the API counts per client IP); the
 * activities' own per-path limiter keeps batches and bursts under it too.
 */
export async function startWorkers(options: WorkersOptions): Promise<RunningWorkers> {
  const { config } = options;
  const { activities, close } = createActivities(config, options.deps);
  const workflowBundle = options.workflowBundle ?? (await workflowBundleFor());
  const queues = options.queues ?? Object.values(TaskQueue);
  const rate = config.ratePerSecond;

  const workers = await Promise.all(queues.map((taskQueue) => {
    const base: WorkerOptions = {
      connection: options.connection,
      namespace: options.namespace,
      taskQueue,
      activities,
    };
    if (taskQueue === TaskQueue.main) return Worker.create({ ...base, workflowBundle, maxConcurrentActivityTaskExecutions: 20 });
    if (taskQueue === TaskQueue.judge) return Worker.create({ ...base, ...judgeLimits(config), maxConcurrentActivityTaskExecutions: 20 });
    const limits = (RATE_LIMITED_QUEUES as readonly string[]).includes(taskQueue) && rate > 0
      ? { maxTaskQueueActivitiesPerSecond: rate, maxActivitiesPerSecond: rate }
      : {};
    const slots = taskQueue === TaskQueue.submit ? config.maxConcurrentAsks : 20;
    return Worker.create({ ...base, ...limits, maxConcurrentActivityTaskExecutions: slots });
  }));

  const done = Promise.all(workers.map((w) => w.run())).then(() => close());
  return {
    done,
    async shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await done;
    },
  };
}
