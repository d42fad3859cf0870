/**
 * What the asks' heartbeats cost at the real service's answer times (issue 24): one run against the simulator at
 * latency scale 1 (answers in 5–30 s), 5 requests/s per path, then the heartbeats that reached the Temporal server
 * (its own RecordActivityTaskHeartbeat counters: no history records them) and the billable actions per row, counted
 * as scenario 3 of `npm run bench` counts them.
 *
 *   npm run bench:heartbeats                 # 200 rows, ≈ 1.5 min
 *   npm run bench:heartbeats -- --rows 500
 *
 * A benchmark, not a test: it asserts nothing. Prints one JSON object (and the estimate the bench derives from the
 * simulator's latency distribution, for comparison).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { installQuietRuntime } from '../src/temporal/sdkRuntime';
import { startBenchServer } from './devServer';
import { costOf } from './report';
import { heartbeatsPerAskAtScale1, runRunnerScenario, type RunnerScenario } from './scenarios';

async function main(): Promise<void> {
  const i = process.argv.indexOf('--rows');
  const rows = i >= 0 ? Number(process.argv[i + 1]) : 200;
  if (!Number.isInteger(rows) || rows <= 0) throw new Error('--rows: a positive whole number');
  const started = Date.now();
  const log = (line: string): void => void process.stderr.write(`[heartbeats ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const scenario: RunnerScenario = {
    name: 'heartbeats', namespace: 'bench-heartbeats', rows, sim: { latencyScale: 1, rateLimit: 5, seed: 7 },
    worker: { ratePerSecond: 5, pollIntervalMs: 1000 }, concurrency: 100, via: 'client',
  };
  installQuietRuntime();
  const workDir = mkdtempSync(join(tmpdir(), 'sitechat-bench-heartbeats-'));
  const server = await startBenchServer([scenario.namespace]);
  const connection = await Connection.connect({ address: server.address });
  const load = loadavg()[0]?.toFixed(1);
  try {
    log(`${rows} questions, answers 5–30 s (latency ×1), 5/s per path, concurrency ${scenario.concurrency}`);
    const m = await runRunnerScenario({ server, connection, workDir, log }, scenario);
    const cost = costOf(m);
    process.stdout.write(`${JSON.stringify({
      command: `npm run bench:heartbeats${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      loadAverage1m: load,
      rows,
      asks: m.histories.activitiesByType.ask ?? 0,
      medianAnswerMs: m.medianAnswerMs,
      latencyMs: m.summary.latencyMs,
      heartbeats: cost.heartbeats,
      heartbeatsPerAsk: Number(cost.heartbeatsPerActivity.toFixed(3)),
      billableActions: cost.actions,
      billableActionsPerRow: Number(cost.actionsPerRow.toFixed(3)),
      eventsPerRow: Number(cost.eventsPerRow.toFixed(2)),
      retries: m.histories.retriesByType,
      estimatedHeartbeatsPerAsk: Number(heartbeatsPerAskAtScale1(scenario.sim.seed).toFixed(3)),
      wallMs: m.wallMs,
      outcomes: m.summary,
      duplicateSubmissions: m.sim.duplicateSubmissions,
      rateLimited: m.sim.rateLimited,
    }, null, 2)}\n`);
  } finally {
    await connection.close();
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
