/**
 * One bench scenario = a fresh simulator, a fresh worker process in the scenario's own namespace, one evaluation
 * run (started by a Temporal client like `startRun` in the tests, or by the CLI), then the numbers: wall time
 * from the run's history, the simulator's counters, every history of the run, the server's request counters, and
 * CPU/RSS of each process.
 */
import { join } from 'node:path';
import type { Connection } from '@temporalio/client';
import { createTemporalClient } from '../src/temporal/client';
import { sha256File } from '../src/datasets';
import { DEMO, startSimulator, type SimStats } from '../src/sim';
import { Prng, sampleCompletionMs } from '../src/sim/prng';
import { TaskQueue } from '../src/temporal/taskQueues';
import { startWorkflow } from '../workflows/starts';
import type { RunInput, RunOptions, RunResult } from '../src/domain/run';
import { benchRows, writeBenchCsv } from './datasets';
import { delta, frontendRequests, type BenchServer } from './devServer';
import { measureCodecCost, type CodecCost } from './codecCost';
import { collectHistories, type RunHistories } from './histories';
import type { NaiveResult } from './naive-runner';
import { forkModule, startCliRun, startWorkerProcess } from './processes';
import { mib, ProcWatcher } from './proc';

export interface BenchEnv {
  server: BenchServer;
  connection: Connection;
  workDir: string;
  log: (line: string) => void;
}

export interface SimSettings {
  latencyScale: number;
  /** requests/second per client IP and path; 0 = off */
  rateLimit: number;
  seed: number;
}

export interface RunnerScenario {
  name: string;
  namespace: string;
  rows: number;
  sim: SimSettings;
  worker: { ratePerSecond: number; pollIntervalMs: number; maxConcurrentAsks?: number };
  /** Conversations in flight (the run's `concurrency`). */
  concurrency: number;
  /** Start the run with a Temporal client (as the tests do) or with `sitechat run --no-worker` in a child process. */
  via: 'client' | 'cli';
  /** `sitechat worker` processes on this host, sharing its pacing directory. @default 1 */
  workers?: number;
  /** Measure what encrypting the run's payloads would cost (bench/codecCost.ts). @default false */
  codecCost?: boolean;
}

export interface ProcStats {
  cpuMs: number;
  /** CPU time / wall time of the run: cores used on average. */
  cores: number;
  /** VmHWM: peak RSS since the process started (start-up included). */
  peakRssMiB: number;
  /** RSS when the measurement began (for the worker: ready, workflows bundled) and its sampled maximum during the run. */
  startRssMiB: number;
  runPeakRssMiB: number;
}

export interface RunnerMeasurement {
  scenario: RunnerScenario;
  wallMs: number;
  throughputQps: number;
  /** Rows finished between the first and the last settleRows completion, per second. */
  steadyQps?: number;
  /** Median of the simulator's answer times for the questions sent (its seeded draws, exact). */
  medianAnswerMs: number;
  summary: Pick<RunResult['summary'], 'total' | 'passed' | 'failed' | 'error' | 'timedOut' | 'skipped' | 'feedback' | 'sessions' | 'latencyMs'>;
  sim: Pick<SimStats, 'requests' | 'rateLimited' | 'submitted' | 'duplicateSubmissions' | 'feedback' | 'sessions' | 'peakRatePerPath' | 'maxConcurrent'>;
  histories: Omit<RunHistories, 'workflows'> & { workflows: number };
  /** Frontend requests of the scenario's namespace on the Temporal server (heartbeats, queries, polls …). */
  frontend: Record<string, number>;
  worker: ProcStats & { readyMs: number };
  server: ProcStats;
  cli?: ProcStats;
  /** This process: the simulator (and the Temporal client waiting for the result). */
  harness: ProcStats;
  /** Started by the CLI: when `sitechat run` exited, ms after the run workflow started. */
  cliExitMs?: number;
  /** The summary's `finishedAt` (the run's reports), ms after the run workflow started. */
  summaryFinishedMs?: number;
  /** Payload encryption's cost, with `scenario.codecCost`. */
  codec?: CodecCost;
}

export interface NaiveMeasurement {
  rows: number;
  concurrency: number;
  wallMs: number;
  throughputQps: number;
  result: Omit<NaiveResult, 'latencyMs'>;
  sim: RunnerMeasurement['sim'];
  process: ProcStats;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Heartbeats per ask at the real service's answer times (latency scale 1: 5–30 s), as the ask sends them: none until
 * its answer has taken half the ask's heartbeat timeout (60 s: `asking` in workflows/activityProxies.ts), then one,
 * then at most one per SDK throttle interval (0.8 × the timeout) while the answer is still open; a pending one is
 * dropped when the activity completes. The answer is seen at the first poll after it is ready (polls every `pollMs`).
 */
export function heartbeatsPerAskAtScale1(seed: number, heartbeatTimeoutMs = 60_000, pollMs = 1000, samples = 100_000): number {
  const rng = new Prng(seed, 'latency');
  const beatAfter = heartbeatTimeoutMs / 2;
  const throttle = 0.8 * heartbeatTimeoutMs;
  let total = 0;
  for (let i = 0; i < samples; i++) {
    const observed = Math.ceil(sampleCompletionMs(rng, 1) / pollMs) * pollMs;
    // At the same moment, the poller beats before it polls.
    if (observed >= beatAfter) total += 1 + Math.floor((observed - beatAfter) / throttle);
  }
  return total / samples;
}

/** The simulator draws one completion time per accepted question from its seeded `latency` stream. */
export function medianAnswerMs(sim: SimSettings, questions: number): number {
  const rng = new Prng(sim.seed, 'latency');
  return median(Array.from({ length: questions }, () => sampleCompletionMs(rng, sim.latencyScale)));
}

function simPick(s: SimStats): RunnerMeasurement['sim'] {
  return {
    requests: s.requests, rateLimited: s.rateLimited, submitted: s.submitted, duplicateSubmissions: s.duplicateSubmissions,
    feedback: s.feedback, sessions: s.sessions, peakRatePerPath: s.peakRatePerPath, maxConcurrent: s.maxConcurrent,
  };
}

function procStats(w: ProcWatcher, wallMs: number): ProcStats {
  const r = w.stop();
  return {
    cpuMs: r.cpuMs, cores: Math.round((r.cpuMs / wallMs) * 100) / 100, peakRssMiB: mib(r.peakRssBytes),
    startRssMiB: mib(r.startRssBytes), runPeakRssMiB: mib(r.sampledPeakRssBytes),
  };
}

export async function runRunnerScenario(env: BenchEnv, sc: RunnerScenario): Promise<RunnerMeasurement> {
  const { log } = env;
  const sim = await startSimulator({ port: 0, ...sc.sim });
  const runsDir = join(env.workDir, sc.name);
  const dataset = writeBenchCsv(env.workDir, sc.name, benchRows(sc.rows));
  const workers = await Promise.all(Array.from({ length: sc.workers ?? 1 }, () => startWorkerProcess({
    address: env.server.address, namespace: sc.namespace, baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir, ...sc.worker,
  })));
  const worker = workers[0] as (typeof workers)[number];
  log(`  worker pid${workers.length > 1 ? 's' : ''} ${workers.map((w) => w.pid).join(', ')} ready in ${(worker.readyMs / 1000).toFixed(1)} s; ${sc.rows} rows via ${sc.via}`);
  try {
    const client = createTemporalClient(env.connection, { namespace: sc.namespace });
    const before = await frontendRequests(env.server.metricsUrl, sc.namespace);
    const workerWatch = new ProcWatcher(worker.pid);
    const serverWatch = new ProcWatcher(env.server.pid);
    const harnessWatch = new ProcWatcher(process.pid);
    const t0 = Date.now();
    let workflowId: string;
    let summary: RunResult['summary'];
    let cliWatch: ProcWatcher | undefined;
    let cliExitedAt: number | undefined;
    if (sc.via === 'client') {
      const runId = `${sc.name}-${Date.now()}`;
      const options: RunOptions = {
        siteId: DEMO.siteId, concurrency: sc.concurrency, feedback: 'graded', answerTimeoutMs: 120_000,
        defaultEmail: 'bench@example.com', assertions: [], closeSessions: true, mode: 'async',
      };
      const input: RunInput = { kind: 'evaluation', runId, dataset: { path: dataset, sha256: await sha256File(dataset) }, options };
      workflowId = `sitechat-evaluation-${runId}`;
      const handle = await startWorkflow(client, 'evaluationRun', { taskQueue: TaskQueue.main, workflowId, args: [input] });
      summary = (await handle.result()).summary;
    } else {
      const cli = startCliRun({
        address: env.server.address, namespace: sc.namespace, baseUrl: sim.baseUrl, siteId: DEMO.siteId, dataset,
        args: ['--concurrency', String(sc.concurrency), '--answer-timeout', '2m', '--out', join(runsDir, 'report')],
      });
      cliWatch = new ProcWatcher(cli.pid);
      const out = await cli.done;
      cliExitedAt = Date.now();
      if (out.code !== 0 && out.code !== 1) throw new Error(`sitechat run exited with ${String(out.code)}: ${out.stderr}`);
      summary = JSON.parse(out.stdout) as RunResult['summary'];
      workflowId = summary.workflowId;
    }
    const elapsed = Date.now() - t0;
    const frontend = delta(await frontendRequests(env.server.metricsUrl, sc.namespace), before);
    const histories = await collectHistories(client, workflowId);
    const wallMs = histories.parent.closeMs - histories.parent.startMs;
    const s = sim.stats();
    const firstBatch = Math.min(20, sc.rows);
    const steadyQps = histories.firstFinishMs !== undefined && histories.lastFinishMs !== undefined && histories.lastFinishMs > histories.firstFinishMs
      ? (sc.rows - firstBatch) / ((histories.lastFinishMs - histories.firstFinishMs) / 1000)
      : undefined;
    const { workflows, ...rest } = histories;
    const codec = sc.codecCost ? await measureCodecCost(client, workflows.map((w) => w.workflowId), sc.rows) : undefined;
    return {
      scenario: sc,
      wallMs,
      throughputQps: sc.rows / (wallMs / 1000),
      steadyQps,
      medianAnswerMs: medianAnswerMs(sc.sim, s.submitted),
      summary: {
        total: summary.total, passed: summary.passed, failed: summary.failed, error: summary.error, timedOut: summary.timedOut,
        skipped: summary.skipped, feedback: summary.feedback, sessions: summary.sessions, latencyMs: summary.latencyMs,
      },
      sim: simPick(s),
      histories: { ...rest, workflows: workflows.length },
      frontend,
      worker: { ...procStats(workerWatch, elapsed), readyMs: worker.readyMs },
      server: procStats(serverWatch, elapsed),
      cli: cliWatch ? procStats(cliWatch, elapsed) : undefined,
      harness: procStats(harnessWatch, elapsed),
      ...(cliExitedAt !== undefined && { cliExitMs: cliExitedAt - histories.parent.startMs }),
      ...(summary.finishedAt && { summaryFinishedMs: Date.parse(summary.finishedAt) - histories.parent.startMs }),
      ...(codec && { codec }),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await sim.close();
  }
}

/** The naive peer in its own process against a fresh simulator with the same settings. */
export async function runNaiveScenario(env: BenchEnv, o: { rows: number; concurrency: number; sim: SimSettings; pollMs: number }): Promise<NaiveMeasurement> {
  const sim = await startSimulator({ port: 0, ...o.sim });
  const dataset = writeBenchCsv(env.workDir, 'naive', benchRows(o.rows));
  try {
    const t0 = Date.now();
    const child = forkModule<NaiveResult>(join(__dirname, 'naive-runner.js'), [
      '--base-url', sim.baseUrl, '--api-key', DEMO.apiKey, '--site', DEMO.siteId, '--dataset', dataset,
      '--concurrency', String(o.concurrency), '--poll-ms', String(o.pollMs),
    ]);
    const watch = new ProcWatcher(child.pid);
    const { latencyMs: _latencies, ...result } = await child.result;
    const elapsed = Date.now() - t0;
    return {
      rows: o.rows, concurrency: o.concurrency, wallMs: result.wallMs, throughputQps: o.rows / (result.wallMs / 1000),
      result, sim: simPick(sim.stats()), process: procStats(watch, elapsed),
    };
  } finally {
    await sim.close();
  }
}
