/**
 * False alarms and detection of the nightly gate (issue 22): the demo dataset against a simulator whose default model
 * is noisy (`modelNoise`), night after night on an unchanged site, each night compared with the night before
 * (`--baseline` of the previous run, as `--baseline latest` would pick). A night whose gate fails on a regression is a
 * false alarm. Then the site gets worse (the weak model answers everything) for a few nights: each must fail.
 * Settings: `--repeat 1` without confirm, `--confirm 2`, `--repeat 3`. Extra questions: asked beyond one per row.
 * A `--confirm` night also tells what its first answers alone would have said (the gate confirm was about to fail),
 * so the same nights give the false alarms without confirm and those confirm removed.
 *
 *   npm run bench:alarms [-- --nights 20 --degraded 3 --noise 0.3 --settings no-confirm,confirm-2,repeat-3]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Connection } from '@temporalio/client';
import { createTemporalClient } from '../src/temporal/client';
import { NativeConnection } from '@temporalio/worker';
import { sha256File } from '../src/datasets';
import { mcnemarExact } from '../src/analysis/stats';
import { DEMO, startSimulator } from '../src/sim';
import { DEFAULT_MODEL, WEAK_MODEL } from '../src/sim/kb/models';
import { installQuietRuntime } from '../src/temporal/sdkRuntime';
import { TaskQueue } from '../src/temporal/taskQueues';
import { startWorkers } from '../src/worker/worker';
import { executeWorkflow } from '../workflows/starts';
import type { RunInput, RunOptions, RunResult } from '../src/domain/run';
import { startBenchServer } from './devServer';

const NAMESPACE = 'bench-alarms';
/** The simulator's answer latencies × this (1 % of the real ones) and no rate limit: a night takes seconds. */
const LATENCY_SCALE = 0.01;

interface Setting {
  /** Its name on the command line (`--settings`). */
  key: string;
  name: string;
  options: Partial<RunOptions>;
}

const SETTINGS: Setting[] = [
  { key: 'no-confirm', name: '--repeat 1, no confirm', options: {} },
  { key: 'confirm-2', name: '--confirm 2', options: { confirm: 2 } },
  { key: 'repeat-3', name: '--repeat 3', options: { repeat: 3 } },
];

interface Night {
  passRate: number | null;
  verdict: string | undefined;
  regressionFailed: boolean;
  questions: number;
  confirmQuestions: number;
  /** `--confirm`: the first answers' comparison would have failed the gate (so confirmation ran). */
  firstAnswersAlarm: boolean;
  /** `--confirm`: regressed rows asked again, and those left unconfirmed because the verdict was decided. */
  confirmRows: number;
  unconfirmedRows: number;
  /** The first answers' rows regressed and fixed against the night before (McNemar's b and c before confirmation). */
  b: number;
  c: number;
}

/**
 * The chance that the one-answer gate (exact McNemar p < 0.05 with b > c) fails on a night with `n` rows that changed,
 * when each changed row is as likely to have regressed as to have been fixed (an unchanged site).
 */
function nullAlarmChance(n: number): number {
  let chance = 0;
  let logC = 0; // log C(n, b)
  for (let b = 0; b <= n; b++) {
    const m = mcnemarExact(b, n - b);
    if (m.significant && b > n - b) chance += Math.exp(logC - n * Math.LN2);
    logC += Math.log(n - b) - Math.log(b + 1);
  }
  return chance;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      nights: { type: 'string', default: '20' }, degraded: { type: 'string', default: '3' }, noise: { type: 'string', default: '0.3' },
      settings: { type: 'string', default: SETTINGS.map((s) => s.key).join(',') },
    },
  });
  const nights = Number(values.nights);
  const degradedNights = Number(values.degraded);
  const noise = Number(values.noise);
  const chosen = values.settings.split(',').map((key) => {
    const setting = SETTINGS.find((s) => s.key === key.trim());
    if (!setting) throw new Error(`--settings: unknown setting ${JSON.stringify(key)} (known: ${SETTINGS.map((s) => s.key).join(', ')})`);
    return setting;
  });
  if (!(Number.isInteger(nights) && nights > 0 && Number.isInteger(degradedNights) && degradedNights >= 0 && noise >= 0 && noise <= 1)) {
    throw new Error('--nights must be a whole number > 0, --degraded a whole number >= 0, --noise a fraction');
  }
  const dataset = resolve(__dirname, '../../datasets/demo.csv');
  const rows = 66;
  const server = await startBenchServer([NAMESPACE]);
  const sim = await startSimulator({ port: 0, latencyScale: LATENCY_SCALE, rateLimit: 0, seed: 22, modelNoise: { [DEFAULT_MODEL]: noise } });
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
  const client = createTemporalClient(connection, { namespace: NAMESPACE });
  const sha256 = await sha256File(dataset);
  let seq = 0;
  const run = async (options: Partial<RunOptions>): Promise<RunResult> => {
    const runId = `alarms-${++seq}`;
    const input: RunInput = {
      kind: 'evaluation', runId, dataset: { path: dataset, sha256 },
      options: { siteId: DEMO.siteId, concurrency: 20, feedback: 'none', answerTimeoutMs: 30_000, defaultEmail: 'bench@example.com', assertions: [], closeSessions: true, mode: 'async', ...options },
    };
    return executeWorkflow(client, 'evaluationRun', { taskQueue: TaskQueue.main, workflowId: `sitechat-evaluation-${runId}`, args: [input] });
  };
  const night = (r: RunResult): Night => ({
    passRate: r.summary.passRate,
    verdict: r.summary.gate?.verdict,
    regressionFailed: (r.summary.gate?.reasons ?? []).some((reason) => reason.startsWith('significant regression')),
    questions: r.summary.total + (r.summary.baseline?.confirmation?.questions ?? 0),
    confirmQuestions: r.summary.baseline?.confirmation?.questions ?? 0,
    firstAnswersAlarm: r.summary.baseline?.confirmation !== undefined,
    confirmRows: r.summary.baseline?.confirmation?.rows ?? 0,
    unconfirmedRows: r.summary.baseline?.confirmation?.unconfirmed?.length ?? 0,
    b: (r.summary.baseline?.mcnemar.b ?? 0) + (r.summary.baseline?.confirmation?.notReproduced.length ?? 0),
    c: r.summary.baseline?.mcnemar.c ?? 0,
  });

  const results: Record<string, unknown>[] = [];
  const write = (): void => {
    const out = resolve(__dirname, `../../bench/results/false-alarms-noise-${noise}-nights-${nights}-${chosen.map((c) => c.key).join('+')}.json`);
    writeFileSync(out, `${JSON.stringify({ measuredAt: new Date().toISOString(), command: `npm run bench:alarms -- ${process.argv.slice(2).join(' ')}`, node: process.version, noise: { [DEFAULT_MODEL]: noise }, seed: 22, simulator: { latencyScale: LATENCY_SCALE, rateLimit: 'off' }, dataset: 'datasets/demo.csv', results }, null, 2)}\n`);
    console.log(`written ${out}`);
  };
  try {
    for (const setting of chosen) {
      const t0 = Date.now();
      let previous = (await run(setting.options)).reportDir;
      const quiet: Night[] = [];
      for (let n = 0; n < nights; n++) {
        const r = await run({ ...setting.options, baseline: previous });
        quiet.push(night(r));
        previous = r.reportDir;
        if ((n + 1) % 10 === 0) console.error(`${setting.key}: ${n + 1} nights, ${quiet.filter((q) => q.regressionFailed).length} alarms, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
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
        // With --confirm: nights whose first answers alone failed the gate, and how many of those confirm kept.
        ...(setting.options.confirm && {
          firstAnswerAlarms: quiet.filter((q) => q.firstAnswersAlarm).length,
          alarmsConfirmKept: quiet.filter((q) => q.firstAnswersAlarm && q.regressionFailed).length,
          quietConfirmNights: quiet.filter((q) => q.firstAnswersAlarm).map((q) => ({ questions: q.confirmQuestions, rowsAsked: q.confirmRows, unconfirmed: q.unconfirmedRows, alarm: q.regressionFailed })),
        }),
        // Model-based: the one-answer gate's false-alarm chance on these nights' changed rows, were flips symmetric.
        expectedAlarmsOneAnswer: setting.options.repeat ? undefined : quiet.reduce((sum, q) => sum + nullAlarmChance(q.b + q.c), 0),
        changedRowsPerNight: quiet.map((q) => [q.b, q.c]),
        passRate: { min: Math.min(...rates), max: Math.max(...rates), mean: rates.reduce((a, b) => a + b, 0) / rates.length },
        questionsPerNight: asked / nights,
        extraOverOnePerRow: asked / nights / rows - 1,
        confirmExtraShare: quiet.reduce((s, q) => s + q.confirmQuestions, 0) / (nights * perRow),
        degradedNights,
        degradedCaught: degraded.filter((d) => d.regressionFailed).length,
        degradedConfirmQuestions: degraded.map((d) => d.confirmQuestions),
        degradedConfirmRows: degraded.map((d) => ({ asked: d.confirmRows, unconfirmed: d.unconfirmedRows })),
        degradedPassRates: degraded.map((d) => d.passRate),
        wallSeconds: (Date.now() - t0) / 1000,
      };
      results.push(line);
      console.log(JSON.stringify(line));
      // After each setting: a long bench stopped half-way keeps what it measured.
      write();
    }
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
