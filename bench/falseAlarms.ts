/**
 * False alarms and detection of the nightly gate (issue 22): the demo dataset against a simulator whose default model
 * is noisy (`modelNoise`), night after night on an unchanged site, each night compared with the night before
 * (`--baseline` of the previous run, as `--baseline latest` would pick). A night whose gate fails on a regression is a
 * false alarm. Then the site gets worse (the weak model answers everything) for a few nights: each must fail.
 * Settings: `--repeat 1` without confirm, `--confirm 2`, `--repeat 3`. Extra questions: asked beyond one per row.
 *
 *   npm run bench:alarms [-- --nights 20 --degraded 3 --noise 0.3]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { sha256File } from '../src/datasets';
import { DEMO, startSimulator } from '../src/sim';
import { DEFAULT_MODEL, WEAK_MODEL } from '../src/sim/kb/models';
import { installQuietRuntime } from '../src/temporal/sdkRuntime';
import { TaskQueue } from '../src/temporal/taskQueues';
import { startWorkers } from '../src/temporal/worker';
import type { RunInput, RunOptions, RunResult } from '../workflows/types';
import { startBenchServer } from './devServer';

const NAMESPACE = 'bench-alarms';

interface Setting {
  name: string;
  options: Partial<RunOptions>;
}

const SETTINGS: Setting[] = [
  { name: '--repeat 1, no confirm', options: {} },
  { name: '--confirm 2', options: { confirm: 2 } },
  { name: '--repeat 3', options: { repeat: 3 } },
];

interface Night {
  passRate: number | null;
  verdict: string | undefined;
  regressionFailed: boolean;
  questions: number;
  confirmQuestions: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { nights: { type: 'string', default: '20' }, degraded: { type: 'string', default: '3' }, noise: { type: 'string', default: '0.3' } } });
  const nights = Number(values.nights);
  const degradedNights = Number(values.degraded);
  const noise = Number(values.noise);
  const dataset = resolve(__dirname, '../../datasets/demo.csv');
  const rows = 66;
  const server = await startBenchServer([NAMESPACE]);
  const sim = await startSimulator({ port: 0, latencyScale: 0.01, rateLimit: 0, seed: 22, modelNoise: { [DEFAULT_MODEL]: noise } });
  const runsDir = mkdtempSync(join(tmpdir(), 'sitechat-alarms-'));
  installQuietRuntime();
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const workers = await startWorkers({
    connection: workerConnection, namespace: NAMESPACE,
    config: {
      baseUrl: sim.baseUrl, apiKey: DEMO.apiKey, runsDir, ratePerSecond: 0, pollIntervalMs: 50, maxConcurrentAsks: 200, pollScope: 'path',
      egressIps: 1, siteRates: {}, pacerDir: join(runsDir, '.pacer'), gradersDir: runsDir,
    },
  });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: NAMESPACE });
  const sha256 = await sha256File(dataset);
  let seq = 0;
  const run = async (options: Partial<RunOptions>): Promise<RunResult> => {
    const runId = `alarms-${++seq}`;
    const input: RunInput = {
      kind: 'evaluation', runId, dataset: { path: dataset, sha256 },
      options: { siteId: DEMO.siteId, concurrency: 20, feedback: 'none', answerTimeoutMs: 30_000, defaultEmail: 'bench@example.com', assertions: [], closeSessions: true, mode: 'async', ...options },
    };
    return (await client.workflow.execute('evaluationRun', { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] })) as RunResult;
  };
  const night = (r: RunResult): Night => ({
    passRate: r.summary.passRate,
    verdict: r.summary.gate?.verdict,
    regressionFailed: (r.summary.gate?.reasons ?? []).some((reason) => reason.startsWith('significant regression')),
    questions: r.summary.total + (r.summary.baseline?.confirmation?.questions ?? 0),
    confirmQuestions: r.summary.baseline?.confirmation?.questions ?? 0,
  });

  const results: Record<string, unknown>[] = [];
  try {
    for (const setting of SETTINGS) {
      const t0 = Date.now();
      let previous = (await run(setting.options)).reportDir;
      const quiet: Night[] = [];
      for (let n = 0; n < nights; n++) {
        const r = await run({ ...setting.options, baseline: previous });
        quiet.push(night(r));
        previous = r.reportDir;
      }
      const degraded: Night[] = [];
      sim.simulator.degraded.set(DEMO.siteId, WEAK_MODEL);
      for (let n = 0; n < degradedNights; n++) degraded.push(night(await run({ ...setting.options, baseline: previous })));
      sim.simulator.degraded.delete(DEMO.siteId);
      const rates = quiet.map((q) => q.passRate ?? 0);
      const perRow = (setting.options.repeat ?? 1) * rows;
      const asked = quiet.reduce((s, q) => s + q.questions, 0);
      const line = {
        setting: setting.name,
        nights,
        falseAlarms: quiet.filter((q) => q.regressionFailed).length,
        passRate: { min: Math.min(...rates), max: Math.max(...rates), mean: rates.reduce((a, b) => a + b, 0) / rates.length },
        questionsPerNight: asked / nights,
        extraOverOnePerRow: asked / nights / rows - 1,
        confirmExtraShare: quiet.reduce((s, q) => s + q.confirmQuestions, 0) / (nights * perRow),
        degradedNights,
        degradedCaught: degraded.filter((d) => d.regressionFailed).length,
        degradedConfirmQuestions: degraded.map((d) => d.confirmQuestions),
        degradedPassRates: degraded.map((d) => d.passRate),
        wallSeconds: (Date.now() - t0) / 1000,
      };
      results.push(line);
      console.log(JSON.stringify(line));
    }
    const out = resolve(__dirname, `../../bench/results/false-alarms-noise-${noise}.json`);
    writeFileSync(out, `${JSON.stringify({ measuredAt: new Date().toISOString(), noise: { [DEFAULT_MODEL]: noise }, seed: 22, dataset: 'datasets/demo.csv', results }, null, 2)}\n`);
    console.log(`written ${out}`);
  } finally {
    await workers.shutdown();
    await workerConnection.close();
    await connection.close();
    await sim.close();
    await server.stop();
    rmSync(runsDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
