/**
 * Matrix runs (issue 23): the simulator's weak model against its default one, two identical variants, and how long
 * variants take. The simulator enforces 5/s per client IP and path (the path names the site), latency ×0.1; one
 * worker process at 5/s per site, as bench/multiSite.ts. Each scenario gets a fresh simulator, so its 429 count and
 * submissions are its own.
 *
 *   1. one model alone (an ordinary evaluationRun): the time every other scenario is measured against;
 *   2. default vs weak model on one site (they share its 5/s): found worse with p < 0.001, about 2 × the time;
 *   3. the default model twice (two named variants): no significant difference;
 *   4. 2 sites × 2 models: each site's two variants share its budget, the sites run side by side: about 2 × the time.
 *
 *   npm run bench:variants [-- --rows 150]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Connection } from '@temporalio/client';
import { createTemporalClient } from '../src/temporal/client';
import { sha256File } from '../src/datasets';
import { DEMO, startSimulator } from '../src/sim';
import { DEFAULT_MODEL, WEAK_MODEL } from '../src/sim/kb/models';
import { demoFixturesWithSites } from '../src/sim/siteCopies';
import { installQuietRuntime } from '../src/temporal/sdkRuntime';
import { TaskQueue } from '../src/temporal/taskQueues';
import { executeWorkflow } from '../workflows/starts';
import { MULTI_SITE_WORKFLOW_TYPE } from '../workflows/multiSiteSignals';
import type { MultiSiteInput, VariantSpec } from '../src/domain/multiSite';
import type { RunInput, RunOptions, RunResult } from '../src/domain/run';
import { benchRows, writeBenchCsv } from './datasets';
import { startBenchServer } from './devServer';
import { startWorkerProcess } from './processes';
import { medianAnswerMs, type SimSettings } from './scenarios';

const NAMESPACE = 'bench-variants';
const SITE_2 = 'demo-site-2';
/** Spec: 5 requests/s per client IP and path; latency scale 0.1 → answers in 0.5–3 s. */
const SIM: SimSettings = { latencyScale: 0.1, rateLimit: 5, seed: 23 };

interface Measured {
  scenario: string;
  variants: string[];
  rowsPerVariant: number;
  wallSeconds: number;
  /** wall / the one-model scenario's wall. */
  timeVsOneModel?: number;
  rateLimited: number;
  submitted: number;
  medianAnswerMs: number;
  passRates: Record<string, number | null>;
  conclusion?: string;
  pairs?: { first: string; second: string; wins: number; ties: number; losses: number; p: number; adjustedP: number; significant: boolean }[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '150' } } });
  const rows = Number(values.rows);
  const started = Date.now();
  const log = (line: string): void => void process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  installQuietRuntime();
  const workDir = mkdtempSync(join(tmpdir(), 'sitechat-bench-variants-'));
  const server = await startBenchServer([NAMESPACE]);
  const connection = await Connection.connect({ address: server.address });
  const client = createTemporalClient(connection, { namespace: NAMESPACE });
  const dataset = writeBenchCsv(workDir, 'variants', benchRows(rows));
  const pinned = { path: dataset, sha256: await sha256File(dataset) };
  const options: RunOptions = {
    siteId: DEMO.siteId, concurrency: 50, feedback: 'graded', answerTimeoutMs: 120_000, defaultEmail: 'bench@example.com', assertions: [], closeSessions: true, mode: 'async',
  };
  let seq = 0;

  /** A fresh simulator and worker process for one scenario: its 429s and submissions are its own. */
  const measure = async (scenario: string, run: (runId: string) => Promise<RunResult>, variants: string[]): Promise<Measured> => {
    const sim = await startSimulator({ port: 0, ...SIM, fixtures: demoFixturesWithSites([DEMO.siteId, SITE_2]) });
    const runsDir = join(workDir, `runs-${++seq}`);
    mkdirSync(runsDir, { recursive: true });
    const worker = await startWorkerProcess({ address: server.address, namespace: NAMESPACE, baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir, ratePerSecond: SIM.rateLimit, pollIntervalMs: 1000 });
    try {
      log(`${scenario}: ${variants.join(', ')} × ${rows} rows`);
      const runId = `variants-${seq}-${Date.now()}`;
      const result = await run(runId);
      const d = await client.workflow.getHandle(`sitechat-evaluation-${runId}`).describe();
      if (!d.closeTime) throw new Error(`${runId}: a finished workflow has no close time`);
      const stats = sim.stats();
      const summary = result.summary as RunResult['summary'] & { sites?: { variant?: { name: string }; siteId: string; passRate: number | null }[]; comparison?: Measured & { pairs: Measured['pairs'] } };
      const m: Measured = {
        scenario, variants, rowsPerVariant: rows, wallSeconds: (d.closeTime.getTime() - d.startTime.getTime()) / 1000,
        rateLimited: stats.rateLimited, submitted: stats.submitted, medianAnswerMs: medianAnswerMs(SIM, stats.submitted),
        passRates: summary.sites ? Object.fromEntries(summary.sites.map((s) => [s.variant?.name ?? s.siteId, s.passRate])) : { [variants[0] ?? '']: summary.passRate },
        ...(summary.comparison && { conclusion: summary.comparison.conclusion, pairs: summary.comparison.pairs }),
      };
      log(`  ${JSON.stringify(m)}`);
      return m;
    } finally {
      await worker.stop();
      await sim.close();
    }
  };
  const matrix = (variants: VariantSpec[]) => async (runId: string): Promise<RunResult> => {
    const sites = [...new Set(variants.map((v) => v.siteId))];
    const input: MultiSiteInput = { kind: 'evaluation', runId, sites, dataset: pinned, options: { ...options, siteId: sites.join(',') }, variants };
    return executeWorkflow(client, MULTI_SITE_WORKFLOW_TYPE, { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
  };
  const single = async (runId: string): Promise<RunResult> => {
    const input: RunInput = { kind: 'evaluation', runId, dataset: pinned, options: { ...options, model: DEFAULT_MODEL } };
    return executeWorkflow(client, 'evaluationRun', { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
  };

  const results: Measured[] = [];
  try {
    const one = await measure('one model', single, [DEFAULT_MODEL]);
    results.push(one);
    const ratio = (m: Measured): Measured => ({ ...m, timeVsOneModel: Math.round((m.wallSeconds / one.wallSeconds) * 100) / 100 });
    results.push(ratio(await measure('default vs weak model, one site', matrix([
      { name: DEFAULT_MODEL, siteId: DEMO.siteId, model: DEFAULT_MODEL }, { name: WEAK_MODEL, siteId: DEMO.siteId, model: WEAK_MODEL },
    ]), [DEFAULT_MODEL, WEAK_MODEL])));
    results.push(ratio(await measure('the default model twice, one site', matrix([
      { name: 'first', siteId: DEMO.siteId, model: DEFAULT_MODEL }, { name: 'second', siteId: DEMO.siteId, model: DEFAULT_MODEL },
    ]), ['first', 'second'])));
    const grid: VariantSpec[] = [DEMO.siteId, SITE_2].flatMap((siteId) => [DEFAULT_MODEL, WEAK_MODEL].map((model) => ({ name: `${siteId}-${model}`, siteId, model })));
    results.push(ratio(await measure('2 sites × 2 models', matrix(grid), grid.map((v) => v.name))));
    const out = resolve(__dirname, '../../bench/results/variants.json');
    writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), rows, sim: SIM, results }, null, 2)}\n`);
    log(`written ${out}`);
  } finally {
    await connection.close();
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
