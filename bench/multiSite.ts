/**
 * Multi-site scenario (issue 13): one dataset against 3 sites of one tenant in one `multiSiteRun`, the simulator
 * enforcing 5/s per client IP and path (the path names the site), one worker process at 5/s per site. The sites'
 * budgets are separate, so the ideal is one site's ideal (rows / 5 + median answer) for all three together:
 * efficiency = that ideal / wall. Target ≥ 0.90 with 0 × 429.
 */
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { createTemporalClient } from '../src/temporal/client';
import { sha256File } from '../src/datasets';
import { DEMO, startSimulator } from '../src/sim';
import { demoFixturesWithSites } from '../src/sim/siteCopies';
import { TaskQueue } from '../src/temporal/taskQueues';
import { executeWorkflow } from '../workflows/starts';
import { MULTI_SITE_WORKFLOW_TYPE } from '../workflows/multiSiteSignals';
import type { MultiSiteInput } from '../src/domain/multiSite';
import type { RunOptions } from '../src/domain/run';
import { benchRows, writeBenchCsv } from './datasets';
import { startWorkerProcess } from './processes';
import { mib, ProcWatcher } from './proc';
import { medianAnswerMs, type BenchEnv, type SimSettings } from './scenarios';

export interface MultiSiteScenario {
  namespace: string;
  sites: string[];
  rowsPerSite: number;
  sim: SimSettings;
  /** Conversations in flight per site. */
  concurrency: number;
}

export interface MultiSiteMeasurement {
  scenario: MultiSiteScenario;
  /** Parent workflow start → close. */
  wallMs: number;
  /** Median of the simulator's answer times for every question sent. */
  medianAnswerMs: number;
  /** Each site's run, start → close of its workflow, and its outcomes. */
  perSite: { siteId: string; wallMs: number; rows: number; errors: number; verdict: string }[];
  rateLimited: number;
  submitted: number;
  peakRatePerPath: Record<string, number>;
  worker: { cores: number; peakRssMiB: number };
}

const CLOSE_TIME_MISSING = 'a finished workflow has no close time';

async function spanMs(client: Client, workflowId: string): Promise<number> {
  const d = await client.workflow.getHandle(workflowId).describe();
  if (!d.closeTime) throw new Error(`${workflowId}: ${CLOSE_TIME_MISSING}`);
  return d.closeTime.getTime() - d.startTime.getTime();
}

export async function runMultiSiteScenario(env: BenchEnv, sc: MultiSiteScenario): Promise<MultiSiteMeasurement> {
  const sim = await startSimulator({ port: 0, ...sc.sim, fixtures: demoFixturesWithSites(sc.sites) });
  const runsDir = join(env.workDir, 'multisite');
  const dataset = writeBenchCsv(env.workDir, 'multisite', benchRows(sc.rowsPerSite));
  const worker = await startWorkerProcess({
    address: env.server.address, namespace: sc.namespace, baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir, ratePerSecond: sc.sim.rateLimit, pollIntervalMs: 1000,
  });
  env.log(`  worker pid ${worker.pid} ready in ${(worker.readyMs / 1000).toFixed(1)} s; ${sc.sites.length} sites × ${sc.rowsPerSite} rows`);
  try {
    const client = createTemporalClient(env.connection, { namespace: sc.namespace });
    const runId = `multisite-${Date.now()}`;
    const workflowId = `sitechat-evaluation-${runId}`;
    const options: RunOptions = {
      siteId: sc.sites.join(','), concurrency: sc.concurrency, feedback: 'graded', answerTimeoutMs: 120_000,
      defaultEmail: 'bench@example.com', assertions: [], closeSessions: true, mode: 'async',
    };
    const input: MultiSiteInput = { kind: 'evaluation', runId, sites: sc.sites, dataset: { path: dataset, sha256: await sha256File(dataset) }, options };
    const watch = new ProcWatcher(worker.pid);
    const t0 = Date.now();
    const result = await executeWorkflow(client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId, args: [input] });
    const elapsed = Date.now() - t0;
    const w = watch.stop();
    const stats = sim.stats();
    const perSite = await Promise.all(result.summary.sites.map(async (s) => ({
      siteId: s.siteId, wallMs: await spanMs(client, s.workflowId), rows: s.rows, errors: s.error + s.timedOut, verdict: s.verdict,
    })));
    return {
      scenario: sc,
      wallMs: await spanMs(client, workflowId),
      medianAnswerMs: medianAnswerMs(sc.sim, stats.submitted),
      perSite,
      rateLimited: stats.rateLimited,
      submitted: stats.submitted,
      peakRatePerPath: stats.peakRatePerPath,
      worker: { cores: Math.round((w.cpuMs / elapsed) * 100) / 100, peakRssMiB: mib(w.peakRssBytes) },
    };
  } finally {
    await worker.stop();
    await sim.close();
  }
}

/** One site's ideal (its rows at its own 5/s, plus the median answer): what all sites together should take. */
export function multiSiteIdealMs(m: MultiSiteMeasurement): number {
  return (m.scenario.rowsPerSite / m.scenario.sim.rateLimit) * 1000 + m.medianAnswerMs;
}
