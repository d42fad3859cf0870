import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowResult, RunSummary } from '../../src/domain/results';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { CLI } from '../helpers/cli';
import { DEMO_QUESTIONS, printedSummary, startFaultStack, type FaultStack } from '../helpers/faultStack';
import { OtlpCollector, spansIn, type CollectorMode } from '../helpers/otlpCollector';
import { exited } from '../helpers/workerProcess';
import { failOnWarnings } from '../helpers/warnings';

/**
 * A `sitechat worker` exporting its spans over OTLP/HTTP while its collector goes away (port closed for 30 s, then
 * for 90 s), hangs (accepts requests and never answers, 30 s), and hangs again while the run ends and the worker is
 * stopped. The run must not notice: every row once, the same outcomes as an untraced run of the same dataset; the
 * worker's span queue stays bounded (it drops spans past OTEL_BSP_MAX_QUEUE_SIZE and says so), each failed export is
 * a warning without the collector's header value, spans flow again once the collector is back, and SIGTERM during a
 * hang still ends the worker (bounded by the exporter's own timeout, OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by default).
 *
 * Measured, not asserted (timings and memory go to docs/observability.md): the worker's RSS per collector state and
 * how long its exit took; the test prints them as one `collector-outage:` JSON line.
 */

/** Submits, feedback and closes at 2/s each: the run lasts well over the outages (≈ 2 rows/s). */
const RATE = 2;
const ROWS = 440;
const TOKEN = 'Bearer otlp-outage-token-5b2e91';
/**
 * Small batches and a small queue, so that a hung collector fills the queue within the test (defaults: 512, 2048):
 * the worker makes ≈ 10 spans a second here, a hung export takes 10 s and carries 20.
 */
const BSP = { OTEL_BSP_SCHEDULE_DELAY: '1000', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '20', OTEL_BSP_MAX_QUEUE_SIZE: '60' };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function rssKiB(pid: number | undefined): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

interface Child {
  child: ChildProcess;
  stderr: () => string;
  /** When the first line containing `text` arrived (epoch ms). */
  saidAt: (text: string) => number | undefined;
  exit: Promise<number | null>;
}

function spawnCollected(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  failOnWarnings(`sitechat ${args.join(' ')}`, child);
  let stderr = '';
  const chunks: { at: number; text: string }[] = [];
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    chunks.push({ at: Date.now(), text: d.toString() });
  });
  return {
    child, stderr: () => stderr, saidAt: (text) => chunks.find((c) => c.text.includes(text))?.at,
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}

const resultsOf = (dir: string): RowResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);

describe('OTLP collector outages under a real worker (fault suite)', () => {
  let stack: FaultStack;
  let collector: OtlpCollector;
  let baselineSim: SimulatorHandle;
  let dataset: string;
  let baseline: { summary: RunSummary; code: number | null; outcomes: Map<string, string>; exitMsAfterSigterm: number };

  beforeAll(async () => {
    stack = await startFaultStack('sitechat-otlp-outage-', { latencyScale: 0.05, rateLimit: RATE, seed: 5 }, () => ({ SITECHAT_RATE_LIMIT: String(RATE) }));
    collector = new OtlpCollector();
    await collector.start();
    dataset = stack.writeDataset('outage.csv', ROWS, DEMO_QUESTIONS);

    // The same dataset without tracing, against a simulator of the same seed (no rate limit: it is only the reference).
    baselineSim = await startSimulator({ port: 0, latencyScale: 0.05, rateLimit: 0, seed: 5 });
    const untraced = { SITECHAT_BASE_URL: baselineSim.baseUrl, SITECHAT_RATE_LIMIT: '0', SITECHAT_PACER_DIR: join(stack.dir, 'pacer-baseline') };
    const worker = spawnCollected(['worker'], stack.env(untraced));
    const run = stack.cli(['run', dataset, '--no-worker', '--json', '--concurrency', '20', '--fail-under', '0', '--out', join(stack.dir, 'baseline')], untraced);
    const code = await run.exit;
    const stopAt = Date.now();
    worker.child.kill('SIGTERM');
    await exited(worker.child);
    const exitMsAfterSigterm = Date.now() - stopAt;
    const summary = printedSummary<RunSummary>(run, code);
    baseline = { summary, code, outcomes: new Map(resultsOf(join(stack.dir, 'baseline')).map((r) => [r.id, r.outcome])), exitMsAfterSigterm };
  }, 300_000);

  afterAll(async () => {
    await collector?.close();
    await baselineSim?.close();
    await stack?.close();
  });

  it('down 30 s, down 90 s, hung 30 s, hung at the end: every row once, same outcomes as untraced, bounded queue, warnings without the header, spans again after each return, exit on SIGTERM', async () => {
    const { sim } = stack;
    const worker = spawnCollected(['worker'], stack.env({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=${encodeURIComponent(TOKEN)}`, ...BSP,
    }));
    const run = stack.cli(['run', dataset, '--no-worker', '--json', '--concurrency', '20', '--fail-under', '0', '--out', join(stack.dir, 'traced')]);
    let runEnded = false;
    void run.exit.then(() => (runEnded = true));
    const said = (): string => `${run.stderr()}\n--- worker:\n${worker.stderr().slice(-4000)}`;
    const waitFor = (done: () => boolean, what: string): Promise<void> => stack.waitFor(done, what, said, 240_000);

    // The worker's RSS each second, with the collector's state then.
    const samples: { mode: CollectorMode; kib: number }[] = [];
    const sampler = setInterval(() => {
      const kib = rssKiB(worker.child.pid);
      if (kib !== undefined) samples.push({ mode: collector.mode, kib });
    }, 1000);

    /** Spans posted while the collector answered, after `t`: it is back and the worker sends again. */
    const spansSince = (t: number): number => collector.posts.filter((p) => p.at > t && p.mode === 'up').reduce((n, p) => n + spansIn(p).length, 0);
    const outage = async (mode: CollectorMode, ms: number): Promise<number> => {
      await collector.setMode(mode);
      await sleep(ms);
      expect(runEnded, `the run ended during the ${mode} phase: make the dataset longer`).toBe(false);
      await collector.setMode('up');
      const back = Date.now();
      await waitFor(() => spansSince(back) > 0, `spans after the collector came back from ${mode}`);
      return back;
    };

    try {
      await waitFor(() => sim.stats().chatRequests.completed >= 20 && collector.posts.length > 0, 'the first answers and spans');
      await outage('down', 30_000);
      await outage('down', 90_000);
      await outage('hang', 30_000);
      expect(runEnded, 'the run outlived every outage').toBe(false);
      // Hung again while the run ends: its last spans wait in the queue when the worker is told to stop.
      await waitFor(() => sim.stats().chatRequests.completed >= ROWS - 30, 'the last answers');
      await collector.setMode('hang');
      const code = await run.exit;
      const summary = printedSummary<RunSummary>(run, code);
      const stopAt = Date.now();
      worker.child.kill('SIGTERM');
      const workerCode = await worker.exit;
      const exitMs = Date.now() - stopAt;
      clearInterval(sampler);
      const stderr = worker.stderr();
      const warnings = stderr.split('\n').filter((l) => l.includes('OpenTelemetry:'));
      const byMode = (m: CollectorMode): { maxMiB: number; n: number } => {
        const s = samples.filter((x) => x.mode === m).map((x) => x.kib);
        return { maxMiB: Math.round(Math.max(...s) / 102.4) / 10, n: s.length };
      };
      const spans = collector.posts.filter((p) => p.mode === 'up').reduce((n, p) => n + spansIn(p).length, 0);
      console.log(`collector-outage: ${JSON.stringify({
        rows: ROWS, rssUp: byMode('up'), rssDown: byMode('down'), rssHang: byMode('hang'), workerExitMsAfterSigterm: exitMs,
        untracedWorkerExitMsAfterSigterm: baseline.exitMsAfterSigterm,
        // From SIGTERM to the warning that the last export failed: the workers' drain, then tracing's shutdown.
        tracingGaveUpMsAfterSigterm: (worker.saidAt('the spans held at shutdown') ?? NaN) - stopAt,
        spansReceived: spans, postsHung: collector.posts.filter((p) => p.mode === 'hang').length, warningLines: warnings.length,
        droppedWarnings: warnings.filter((l) => l.includes('Dropped')).length,
      })}`);

      // The run did not notice the collector: every row once, the same outcomes and verdict as without tracing.
      const results = resultsOf(join(stack.dir, 'traced'));
      expect(results).toHaveLength(ROWS);
      expect(new Set(results.map((r) => r.id)).size).toBe(ROWS);
      expect(new Map(results.map((r) => [r.id, r.outcome]))).toEqual(baseline.outcomes);
      expect(code).toBe(baseline.code);
      expect(summary.gate?.verdict).toBe(baseline.summary.gate?.verdict);
      expect(sim.stats().submitted).toBe(ROWS);
      expect(sim.stats().duplicateSubmissions).toBe(0);
      expect(sim.stats().rateLimited).toBe(0);

      // The worker stopped on SIGTERM with spans in a hung export: it gave up on them and exited cleanly.
      expect(workerCode, said()).toBe(0);
      expect(warnings.some((l) => l.includes('the spans held at shutdown were not exported')), said()).toBe(true);
      // Each failed export is a warning: refused connections, and requests the collector never answered.
      expect(warnings.some((l) => l.includes('ECONNREFUSED')), said()).toBe(true);
      expect(warnings.some((l) => /Request Timeout|timed out/i.test(l)), said()).toBe(true);
      // The queue is bounded: past OTEL_BSP_MAX_QUEUE_SIZE spans are dropped and counted, not kept.
      expect(warnings.some((l) => /Dropped \d+ spans because maxQueueSize reached/.test(l)), said()).toBe(true);
      // The collector saw the header; the worker's output never did.
      expect(collector.posts.filter((p) => p.mode === 'up').every((p) => p.headers.authorization === TOKEN)).toBe(true);
      expect(stderr).not.toContain(TOKEN);
      expect(stderr).not.toContain('otlp-outage-token');
      expect(stderr).not.toContain(DEMO.apiKey);
      expect(collector.posts.some((p) => p.mode === 'hang'), 'the worker sent to the hung collector').toBe(true);

    } finally {
      clearInterval(sampler);
      worker.child.kill('SIGKILL');
    }
  }, 600_000);
});
