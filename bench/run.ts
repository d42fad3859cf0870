/**
 * The benchmark harness (issue 6). One run, one Temporal dev server (one namespace per scenario), fresh simulators:
 *
 *   1. throughput at the API's limit (500 questions, 5/s per path, answers 0.5–3 s) — wall, ideal, efficiency, 429s
 *  1b. the same with 2 and 4 `sitechat worker` processes on this host — efficiency and 429s (the pacing is per host)
 *   5. the same 500 questions from a naive script (bench/naive-runner.ts) against a fresh simulator — the ratio
 *   2. engine ceiling: limits off, fast answers, 100 ms polls — questions/s, worker CPU and RSS
 *   3. Temporal cost per row, from every history of run 1 and the server's heartbeat/query counters
 *   4. scale: 10,000 rows through `sitechat run --no-worker` and a `sitechat worker` process — RSS, largest history
 *   6. multi-site: one dataset against 3 sites in one run (300 rows each, 5/s per path) — efficiency vs one site's ideal
 *   7. payload encryption: every payload of run 1's histories encrypted and decrypted (SITECHAT_PAYLOAD_KEYS) — time per row
 *
 *   npm run bench                       # full (~8 min)
 *   npm run bench -- --quick            # ~1 min: 100 questions, 300-row ceiling, 1,000-row scale
 *   npm run bench -- --only limit,naive # a subset (limit, tail, workers, naive, ceiling, scale, multisite)
 *   npm run bench -- --write-docs       # also replace the results block of BENCHMARKS.md
 *   node dist/bench/run.js --render bench/results/latest.json [--write-docs]   # re-render a saved run
 *
 * BENCH_WORKER_METRICS=1 has the worker processes serve their Prometheus metrics (SITECHAT_METRICS_ADDR on an ephemeral
 * port), to measure what the instrumentation costs.
 * BENCH_WORKER_OTLP_ENDPOINT=http://host:port has the worker processes trace (OTEL_EXPORTER_OTLP_ENDPOINT), to measure what
 * tracing costs; any OTLP/HTTP receiver will do.
 * BENCH_WORKER_NODE_OPTIONS (e.g. --max-old-space-size=160) is passed to the worker processes as NODE_OPTIONS, for
 * memory diagnostics; it is recorded in the command line of the results.
 * MALLOC_ARENA_MAX in the environment reaches the worker processes too, and is recorded there as well: on Node 20 it
 * is what keeps a worker's malloc arenas at two (on Node 22.15+ `sitechat worker` sets it itself).
 *
 * Writes bench/results/latest.json (quick runs: bench/results/quick.json). Benchmarks, not tests: nothing here
 * asserts a duration; missed targets are reported, and the exit code stays 0 unless the harness itself fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { installQuietRuntime } from '../src/temporal/sdkRuntime';
import { projectRoot } from '../src/shared/projectRoot';
import { DEMO } from '../src/sim';
import { startBenchServer } from './devServer';
import { runMultiSiteScenario, type MultiSiteScenario } from './multiSite';
import { derive, renderMarkdown, renderTerminal, type BenchResults } from './report';
import { runNaiveScenario, runRunnerScenario, type BenchEnv, type RunnerScenario, type SimSettings } from './scenarios';

const SCENARIOS = ['limit', 'tail', 'workers', 'naive', 'ceiling', 'scale', 'multisite'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

/** Rows of the tail scenario, quick or not: the run size whose efficiency issue 33 measured (0.925, goal 0.98). */
const TAIL_ROWS = 150;

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: projectRoot(), encoding: 'utf8' });
  } catch {
    return '';
  }
}

function parseArgs(argv: string[]): { quick: boolean; only: Set<ScenarioName>; writeDocs: boolean } {
  const quick = argv.includes('--quick');
  const writeDocs = argv.includes('--write-docs');
  const i = argv.indexOf('--only');
  const only = new Set<ScenarioName>(i >= 0 ? (argv[i + 1] ?? '').split(',').map((x) => x.trim() as ScenarioName) : SCENARIOS);
  for (const name of only) if (!SCENARIOS.includes(name)) throw new Error(`--only: unknown scenario "${name}" (known: ${SCENARIOS.join(', ')})`);
  return { quick, only, writeDocs };
}

/** `--render FILE`: re-render a results file (derived numbers recomputed) without running anything. */
function render(file: string, writeDocsToo: boolean): void {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
  const full: BenchResults = { ...saved, derived: derive(saved) };
  process.stdout.write(`${renderTerminal(full)}\n\n${renderMarkdown(full)}\n`);
  if (writeDocsToo) writeDocs(renderMarkdown(full));
}

async function main(): Promise<void> {
  const r = process.argv.indexOf('--render');
  if (r >= 0) return render(process.argv[r + 1] ?? join(projectRoot(), 'bench', 'results', 'latest.json'), process.argv.includes('--write-docs'));
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const log = (line: string): void => void process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const n = args.quick
    ? { limit: 100, ceiling: 300, scale: 1_000, multisite: 100 }
    : { limit: 500, ceiling: 2_000, scale: 10_000, multisite: 300 };

  // Spec: 5 requests/s per client IP and path; latency scale 0.1 → answers in 0.5–3 s.
  const limitSim: SimSettings = { latencyScale: 0.1, rateLimit: 5, seed: 7 };
  const fastSim: SimSettings = { latencyScale: 0.01, rateLimit: 0, seed: 7 };
  const concurrency = 50;
  const fast = { ratePerSecond: 0, pollIntervalMs: 100, maxConcurrentAsks: 1000 };
  const scenarios: Record<Exclude<ScenarioName, 'naive' | 'workers' | 'multisite'>, RunnerScenario> = {
    limit: { name: 'limit', namespace: 'bench-limit', rows: n.limit, sim: limitSim, worker: { ratePerSecond: 5, pollIntervalMs: 1000 }, concurrency, via: 'client', codecCost: true },
    // A short run, where what happens after the last answer weighs most; through the CLI, to time its exit too.
    tail: { name: 'tail', namespace: 'bench-tail', rows: TAIL_ROWS, sim: limitSim, worker: { ratePerSecond: 5, pollIntervalMs: 1000 }, concurrency, via: 'cli' },
    ceiling: { name: 'ceiling', namespace: 'bench-ceiling', rows: n.ceiling, sim: fastSim, worker: fast, concurrency: 200, via: 'client' },
    scale: { name: 'scale', namespace: 'bench-scale', rows: n.scale, sim: fastSim, worker: fast, concurrency: 200, via: 'cli' },
  };
  const workerCounts = [2, 4];
  const workerScenarios = workerCounts.map((count): RunnerScenario => ({ ...scenarios.limit, name: `workers-${count}`, namespace: `bench-workers-${count}`, workers: count, codecCost: false }));

  installQuietRuntime();
  const workDir = mkdtempSync(join(tmpdir(), 'sitechat-bench-'));
  log('starting the Temporal dev server');
  const multiSite: MultiSiteScenario = { namespace: 'bench-multisite', sites: [DEMO.siteId, 'demo-site-2', 'demo-site-3'], rowsPerSite: n.multisite, sim: limitSim, concurrency };
  const server = await startBenchServer([...Object.values(scenarios), ...workerScenarios].map((s) => s.namespace).concat(multiSite.namespace));
  const connection = await Connection.connect({ address: server.address });
  const env: BenchEnv = { server, connection, workDir, log };
  const results: Omit<BenchResults, 'derived' | 'totalMs'> = {
    date: new Date().toISOString(),
    commit: git(['rev-parse', 'HEAD']).trim(),
    dirty: git(['status', '--porcelain', '--untracked-files=no']).split('\n').filter(Boolean).map((l) => l.slice(3)),
    // MALLOC_ARENA_MAX reaches the worker processes through this environment; it moves their peak RSS (BENCHMARKS.md).
    command: `${process.env.MALLOC_ARENA_MAX !== undefined ? `MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX} ` : ''}${process.env.BENCH_WORKER_METRICS === '1' ? 'BENCH_WORKER_METRICS=1 ' : ''}${process.env.BENCH_WORKER_OTLP_ENDPOINT ? `BENCH_WORKER_OTLP_ENDPOINT=${process.env.BENCH_WORKER_OTLP_ENDPOINT} ` : ''}${process.env.BENCH_WORKER_NODE_OPTIONS ? `BENCH_WORKER_NODE_OPTIONS='${process.env.BENCH_WORKER_NODE_OPTIONS}' ` : ''}npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    quick: args.quick,
    machine: {
      cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version, platform: `${platform()} ${release()}`,
    },
  };
  try {
    if (args.only.has('limit')) {
      log(`1. at the limit: ${n.limit} questions, 5/s per path, latency ×${limitSim.latencyScale}`);
      results.limit = await runRunnerScenario(env, scenarios.limit);
      log(`   wall ${(results.limit.wallMs / 1000).toFixed(1)} s, ${results.limit.sim.rateLimited} × 429`);
    }
    if (args.only.has('tail')) {
      log(`1c. the tail: ${TAIL_ROWS} questions at the limit via sitechat run --no-worker`);
      results.tail = await runRunnerScenario(env, scenarios.tail);
      log(`   wall ${(results.tail.wallMs / 1000).toFixed(1)} s, ${results.tail.sim.rateLimited} × 429`);
    }
    if (args.only.has('workers')) {
      results.workers = [];
      for (const sc of workerScenarios) {
        log(`1b. at the limit with ${sc.workers} worker processes: ${sc.rows} questions`);
        const m = await runRunnerScenario(env, sc);
        results.workers.push(m);
        log(`   wall ${(m.wallMs / 1000).toFixed(1)} s, ${m.sim.rateLimited} × 429`);
      }
    }
    if (args.only.has('naive')) {
      log(`5. naive script: the same ${n.limit} questions, concurrency ${concurrency}, fresh simulator`);
      results.naive = await runNaiveScenario(env, { rows: n.limit, concurrency, sim: limitSim, pollMs: 1000 });
      log(`   wall ${(results.naive.wallMs / 1000).toFixed(1)} s, ${results.naive.sim.rateLimited} × 429`);
    }
    if (args.only.has('ceiling')) {
      log(`2. engine ceiling: ${n.ceiling} questions, limits off, latency ×${fastSim.latencyScale}, polls every ${fast.pollIntervalMs} ms`);
      results.ceiling = await runRunnerScenario(env, scenarios.ceiling);
      log(`   ${results.ceiling.throughputQps.toFixed(1)} q/s`);
    }
    if (args.only.has('scale')) {
      log(`4. scale: ${n.scale} rows via sitechat run --no-worker + sitechat worker`);
      results.scale = await runRunnerScenario(env, scenarios.scale);
      log(`   ${results.scale.summary.total} rows in ${(results.scale.wallMs / 1000).toFixed(1)} s; largest history ${results.scale.histories.largest.events} events`);
    }
    if (args.only.has('multisite')) {
      log(`6. multi-site: ${multiSite.sites.length} sites × ${n.multisite} rows in one run, 5/s per path, latency ×${limitSim.latencyScale}`);
      results.multiSite = await runMultiSiteScenario(env, multiSite);
      log(`   wall ${(results.multiSite.wallMs / 1000).toFixed(1)} s, ${results.multiSite.rateLimited} × 429`);
    }
  } finally {
    await connection.close();
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }

  const full: BenchResults = { ...results, derived: derive(results), totalMs: Date.now() - started };
  const dir = join(projectRoot(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, args.quick ? 'quick.json' : 'latest.json');
  writeFileSync(file, JSON.stringify(full, null, 2) + '\n');
  process.stdout.write(`\n${renderTerminal(full)}\n\n${renderMarkdown(full)}\n\nresults: ${file}\n`);
  if (args.writeDocs) writeDocs(renderMarkdown(full));
}

/** Replaces the block between the bench markers of BENCHMARKS.md. */
function writeDocs(block: string): void {
  const path = join(projectRoot(), 'BENCHMARKS.md');
  const text = readFileSync(path, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${path} has no ${start} … ${end} block`);
  writeFileSync(path, `${text.slice(0, a + start.length)}\n${block}\n${text.slice(b)}`);
  process.stderr.write(`updated ${path}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
