/**
 * The runner's own processes, started as a deployment runs them (from the build): `sitechat worker` and
 * `sitechat run --no-worker`, each in its own process so that its CPU and memory can be read from /proc.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/shared/projectRoot';
import { stopChild } from './devServer';

export const CLI = join(projectRoot(), 'dist', 'src', 'cli', 'main.js');

export interface WorkerEnv {
  address: string;
  namespace: string;
  baseUrl: string;
  apiKey: string;
  runsDir: string;
  ratePerSecond: number;
  pollIntervalMs: number;
  maxConcurrentAsks?: number;
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** Milliseconds from spawn to "worker polling" (bundling the workflows, connecting). */
  readyMs: number;
  stop(): Promise<void>;
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  // Only what the runner reads; no inherited TEMPORAL_* or SITECHAT_* of the caller's shell.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TEMPORAL_|SITECHAT_)/.test(k)));
  return { ...base, SITECHAT_SKIP_TEMPORAL_PROVISION: '1', ...extra };
}

export async function startWorkerProcess(w: WorkerEnv): Promise<WorkerProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm run bench does)`);
  const t0 = Date.now();
  const child = spawn(process.execPath, [CLI, 'worker'], {
    env: env({
      TEMPORAL_ADDRESS: w.address,
      TEMPORAL_NAMESPACE: w.namespace,
      SITECHAT_BASE_URL: w.baseUrl,
      SITECHAT_API_KEY: w.apiKey,
      SITECHAT_RUNS_DIR: w.runsDir,
      SITECHAT_RATE_LIMIT: String(w.ratePerSecond),
      SITECHAT_POLL_INTERVAL_MS: String(w.pollIntervalMs),
      ...(w.maxConcurrentAsks ? { SITECHAT_MAX_CONCURRENT_ASKS: String(w.maxConcurrentAsks) } : {}),
      // Diagnostics only (e.g. --max-old-space-size=192 to tell garbage from live memory); recorded in the results.
      ...(process.env.BENCH_WORKER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS } : {}),
      // BENCH_WORKER_METRICS=1: the workers serve their metrics (an ephemeral port each), to see what that costs.
      ...(process.env.BENCH_WORKER_METRICS === '1' ? { SITECHAT_METRICS_ADDR: '127.0.0.1:0' } : {}),
      // BENCH_WORKER_OTLP_ENDPOINT=http://…: the workers trace, sending OTLP/HTTP there, to see what tracing costs.
      ...(process.env.BENCH_WORKER_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.BENCH_WORKER_OTLP_ENDPOINT } : {}),
    }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker not ready after 120 s: ${output}`)), 120_000);
    child.stderr?.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-8000);
      if (output.includes('worker polling')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${String(code)}: ${output}`));
    });
  });
  const readyMs = Date.now() - t0;
  child.removeAllListeners('exit');
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  return {
    child,
    pid: child.pid as number,
    readyMs,
    stop: async () => {
      process.off('exit', kill);
      await stopChild(child);
    },
  };
}

export interface CliRun {
  pid: number;
  /** Resolves with the exit code, stdout and the tail of stderr. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `sitechat run <dataset> --no-worker --json` against the given server and API (the worker runs elsewhere). */
export function startCliRun(o: { address: string; namespace: string; baseUrl: string; siteId: string; dataset: string; args: string[] }): CliRun {
  const child = spawn(process.execPath, [CLI, 'run', o.dataset, '--no-worker', '--json', ...o.args], {
    env: env({
      TEMPORAL_ADDRESS: o.address,
      TEMPORAL_NAMESPACE: o.namespace,
      SITECHAT_BASE_URL: o.baseUrl,
      SITECHAT_SITE_ID: o.siteId,
      SITECHAT_EMAIL: 'bench@example.com',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-8000)));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
  return { pid: child.pid as number, done };
}

/** Forks a compiled bench module (the naive peer) with IPC; resolves with the first message it sends. */
export function forkModule<T>(file: string, args: string[]): { pid: number; result: Promise<T> } {
  const child = fork(file, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const result = new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${String(code)} before reporting`)));
  });
  return { pid: child.pid as number, result };
}
