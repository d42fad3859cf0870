import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { createActivities, type ActivityDeps } from '../../activities';
import { payloadDataConverter } from '../codec/dataConverter';
import { JUDGE_DEFAULTS } from '../grading/judge/settings';
import { siteInLogs } from '../observability/logging/siteInLogs';
import { activeTracing } from '../observability/tracing/state';
import { hostname } from 'node:os';
import { configureQueueBudgets } from './queueConfig';
import { refuseOtherApis } from './apiGuard';
import { workerApi } from '../api/identity';
import { limitHeapGrowth } from './heapGrowth';
import { RATE_LIMITED_QUEUES, TaskQueue } from '../temporal/taskQueues';
import { runTogether, type RunningWorkers } from './workerGroup';
import type { WorkerConfig } from '../temporal/workerConfig';

export interface WorkersOptions {
  connection: NativeConnection;
  namespace?: string;
  config: WorkerConfig;
  /**
   * Reuse a bundle across workers of one process (bundling takes seconds); with tracing on it must be a traced one
   * (`bundleWorkflows({ traced: true })`). @default the prebuilt one, else bundled now
   */
  workflowBundle?: WorkflowBundleWithSourceMap | { codePath: string };
  /** Extra dependencies for the activities (tests inject a dispatcher through the client). */
  deps?: Partial<ActivityDeps>;
  /** Which queues to poll. @default all of them */
  queues?: readonly string[];
  /**
   * How payloads are encoded (tests and tools give one of `dataConverterFor`). @default the codec of
   * SITECHAT_PAYLOAD_KEYS (`payloadDataConverter`)
   */
  dataConverter?: DataConverter;
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

/**
 * dist/workflow-bundle.js, written by `npm run build` (scripts/bundle-workflows.ts); with `traced`,
 * dist/workflow-bundle-traced.js, the same workflows with the OpenTelemetry workflow interceptors.
 */
export function prebuiltBundlePath(traced = false): string {
  return join(__dirname, '..', '..', traced ? 'workflow-bundle-traced.js' : 'workflow-bundle.js');
}

/** The build's bundle when running from dist/, else a fresh one (tests run the sources, which may be newer). */
async function workflowBundleFor(traced: boolean): Promise<WorkflowBundleWithSourceMap | { codePath: string }> {
  const prebuilt = prebuiltBundlePath(traced);
  return __filename.endsWith('.js') && existsSync(prebuilt) ? { codePath: prebuilt } : bundleWorkflows({ traced });
}

/**
 * The workflow interceptors of `@temporalio/interceptors-opentelemetry`: a span per workflow run, and the trace
 * context put into the headers of each activity and child workflow it starts. They issue no commands of their own
 * (headers are not compared on replay; the replay test replays every recorded history through the traced bundle too).
 */
export function tracingWorkflowInterceptorsPath(): string {
  return require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');
}

/**
 * Two bundles, so that a worker without tracing runs workflows without a trace of it (no interceptor, no span, no
 * OpenTelemetry code in the sandbox), and a traced one gets the interceptors, which must be bundled in.
 */
export function bundleWorkflows(options: { traced?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    logger: quietBundlerLogger,
    ...(options.traced ? { workflowInterceptorModules: [tracingWorkflowInterceptorsPath()] } : {}),
  });
}

const noop = (): void => undefined;
const quietBundlerLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

/**
 * One worker per task queue, sharing a connection and one set of activities. The rate-limited queues get each site's
 * budget from the server (fairness keys, `configureQueueBudgets`); the activities' pacer holds every host to it
 * exactly (the API counts per client IP), whatever the number of worker processes on the host.
 */
export async function startWorkers(options: WorkersOptions): Promise<RunningWorkers> {
  const { config } = options;
  // Before anything is asked of the server: a malformed SITECHAT_PAYLOAD_KEYS stops the worker here.
  const dataConverter = options.dataConverter ?? payloadDataConverter();
  limitHeapGrowth(config.heapGrowthPercent);
  const queues = options.queues ?? Object.values(TaskQueue);
  if (queues.some((q) => (RATE_LIMITED_QUEUES as readonly string[]).includes(q))) {
    const identity = `sitechat-worker ${process.pid}@${hostname()}`;
    try {
      await configureQueueBudgets(options.connection, options.namespace ?? 'default', config, identity);
    } catch (err) {
      // A server older than 1.28 (no task-queue config), or a namespace role that may not change it: the pacer still
      // holds each host to the budget; sites then share the queues' dispatch.
      Runtime.instance().logger.warn(`could not set the per-site budgets of the rate-limited task queues (${err instanceof Error ? err.message : String(err)}); each host is still paced to the API's budget`);
    }
  }
  const { activities, close } = createActivities(config, options.deps);
  const guard = refuseOtherApis(workerApi(config), (message) => Runtime.instance().logger.warn(message));
  const tracing = activeTracing()?.workerOptions();
  const workflowBundle = options.workflowBundle ?? (await workflowBundleFor(tracing !== undefined));

  const workers = await Promise.all(queues.map((taskQueue) => {
    const base: WorkerOptions = {
      connection: options.connection,
      namespace: options.namespace,
      taskQueue,
      activities,
      // One data converter for every queue: activity inputs, results and heartbeats are payloads like workflow ones.
      dataConverter,
      // The API check first: a task of another API's run is refused before anything else sees it.
      interceptors: { activity: [guard, siteInLogs, ...(tracing?.interceptors?.activity ?? [])] },
      ...(tracing?.sinks ? { sinks: tracing.sinks } : {}),
    };
    if (taskQueue === TaskQueue.main) return Worker.create({ ...base, workflowBundle, maxConcurrentActivityTaskExecutions: 20 });
    if (taskQueue === TaskQueue.judge) return Worker.create({ ...base, ...judgeLimits(config), maxConcurrentActivityTaskExecutions: 20 });
    // Calls waiting for their site's window hold a slot: room for every site of a busy cluster.
    const slots = taskQueue === TaskQueue.submit ? config.maxConcurrentAsks : 100;
    return Worker.create({ ...base, maxConcurrentActivityTaskExecutions: slots });
  }));

  return runTogether(workers, close);}
