import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, type Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { startSimulator, type SimulatorOptions } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { installQuietRuntime } from '../../src/temporal/sdkRuntime';
import { payloadDataConverter } from '../../src/codec/dataConverter';
import { createTemporalClient } from '../../src/temporal/client';
import { activeTracing } from '../../src/observability/tracing/state';
import { bundleWorkflows, startWorkers } from '../../src/worker/worker';
import { type RunningWorkers } from '../../src/worker/workerGroup';
import type { WorkerConfig } from '../../src/temporal/workerConfig';
import { namespaceForFile } from './namespace';
import { watchOwnWarnings } from './warnings';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * Bundling takes seconds; one bundle serves every worker of a test file. A file that started tracing (before its
 * stack) gets the traced bundle, as a traced worker would.
 */
export function sharedBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflows({ traced: activeTracing() !== undefined });
  return bundle;
}

export interface Stack {
  sim: Awaited<ReturnType<typeof startSimulator>>;
  client: Client;
  namespace: string;
  runsDir: string;
  config: WorkerConfig;
  workers?: RunningWorkers;
  /** The payload codec of the stack's client and workers. */
  dataConverter: DataConverter;
  /** Workers on the stack's namespace; `dataConverter` gives them other payload keys than the stack's client has. */
  startWorkers(overrides?: Partial<WorkerConfig>, dataConverter?: DataConverter): Promise<RunningWorkers>;
  close(): Promise<void>;
}

/**
 * The real pieces, wired as a user would run them: the simulator over HTTP, the test file's namespace on the
 * shared Temporal dev server, and in-process workers with a fresh results directory. `dataConverter` (of
 * `dataConverterFor`) gives client and workers payload keys; by default they have this process's (none in tests).
 * `close()` fails when this process emitted a Node warning meanwhile (the workers run here: theirs are its).
 */
export async function startStack(testFile: string, sim: SimulatorOptions = {}, worker: Partial<WorkerConfig> = {}, dataConverter: DataConverter = payloadDataConverter()): Promise<Stack> {
  const namespace = namespaceForFile(testFile);
  const warnings = watchOwnWarnings(`the stack of ${testFile}`);
  const address = inject('temporalAddress');
  const simulator = await startSimulator({ port: 0, latencyScale: 0.01, rateLimit: 0, ...sim });
  const runsDir = mkdtempSync(join(tmpdir(), 'sitechat-runs-'));
  const config: WorkerConfig = {
    baseUrl: simulator.baseUrl, apiKey: DEMO.apiKey, runsDir, ratePerSecond: 0, pollIntervalMs: 50, maxConcurrentAsks: 200, pollScope: 'path',
    egressIps: 1, siteRates: {}, pacerDir: join(runsDir, '.pacer'),
    // Tests write their custom graders next to their datasets.
    gradersDir: runsDir, ...worker,
  };
  const clientConnection = await Connection.connect({ address });
  installQuietRuntime();
  const workerConnection = await NativeConnection.connect({ address });
  const stack: Stack = {
    sim: simulator,
    client: createTemporalClient(clientConnection, { namespace, dataConverter }),
    namespace,
    dataConverter,
    runsDir,
    config,
    async startWorkers(overrides = {}, workerDataConverter = dataConverter) {
      stack.workers = await startWorkers({
        connection: workerConnection, namespace, config: { ...config, ...overrides }, workflowBundle: await sharedBundle(), dataConverter: workerDataConverter,
      });
      return stack.workers;
    },
    async close() {
      await stack.workers?.shutdown();
      await workerConnection.close();
      await clientConnection.close();
      await simulator.close();
      rmSync(runsDir, { recursive: true, force: true });
      warnings.check();
    },
  };
  return stack;
}

/**
 * Registers a test file's hooks: one stack with running workers for the whole file, and a clean simulator
 * (state, stats and faults) before every test.
 */
export function useStack(testFile: string, set: (stack: Stack) => void): void {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(testFile);
    await stack.startWorkers();
    set(stack);
  });
  afterAll(async () => stack?.close());
  beforeEach(() => {
    stack?.sim.reset();
    stack?.sim.setFaults({});
  });
}

/**
 * Points the CLI actions a test calls in this process at the stack's Temporal namespace, with nothing of the
 * developer's environment (API URL and key, site, email, Temporal profile) leaking in. Returns the restore.
 */
export function pointCliAt(stack: Stack): () => void {
  const saved = { ...process.env };
  for (const k of ['SITECHAT_BASE_URL', 'SITECHAT_API_KEY', 'SITECHAT_SITE_ID', 'SITECHAT_EMAIL', 'TEMPORAL_PROFILE', 'TEMPORAL_CONFIG_FILE']) delete process.env[k];
  Object.assign(process.env, { TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: stack.namespace });
  return () => {
    process.env = saved;
  };
}
