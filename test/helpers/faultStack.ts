import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { freePort, spawnDevServer, type DevServerProcess } from '../../src/temporal/devServerProcess';
import { locateTemporalCli } from '../../src/temporal/cliLocator';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../../src/temporal/localServer';
import { CLI } from './cli';
import { exited } from './workerProcess';
import { failOnWarnings } from './warnings';

/** Questions the demo knowledge base answers, each with a word its answer must include ([question, must_include]). */
export const DEMO_QUESTIONS: readonly (readonly [string, string])[] = [
  ['How much does the Personal plan cost?', '$9.99'],
  ['How much storage do I get for free?', '5 GB'],
  ['Can I get a refund for my annual subscription?', '14 days'],
  ['How do I reset my password?', 'reset'],
];

/** A `sitechat` command running in its own process, its output collected. */
export interface CliProcess {
  exit: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/**
 * The fault suite's stack, all real processes: a Temporal dev server of its own (which a test may stop and start
 * again on the same database and port), the simulator, `sitechat worker` processes and the CLI, all sharing one
 * temp directory and the settings `env()` gives them.
 */
export interface FaultStack {
  dir: string;
  sim: SimulatorHandle;
  /** The environment of every process: the parent's without its SITECHAT_ and TEMPORAL_ settings, plus the stack's. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  startServer(): Promise<void>;
  stopServer(): Promise<void>;
  spawnWorker(extra?: Record<string, string>): ChildProcess;
  /** `sitechat <args>` with stdout and stderr collected, in `env(extra)`. */
  cli(args: string[], extra?: Record<string, string>): CliProcess;
  /**
   * A dataset of `rows` numbered questions cycling through `questions` ([question, must_include]); with `turns` > 1,
   * conversations of that many turns (`c1` turns 1…turns, then `c2` …), the last one possibly shorter.
   * @default turns 1 (no conversation columns)
   */
  writeDataset(name: string, rows: number, questions: readonly (readonly [string, string])[], turns?: number): string;
  /** Polls `done` every 200 ms; fails after `ms` naming `what` and what the CLI said. */
  waitFor(done: () => boolean, what: string, said: () => string, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultStack(prefix: string, simOptions: SimulatorOptions, settings: () => Record<string, string> = () => ({})): Promise<FaultStack> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const located = await locateTemporalCli();
  if (!located.path) throw new Error(`no Temporal CLI: ${located.notes.join('; ')}`);
  const cliPath = located.path;
  const port = await freePort();
  let server: DevServerProcess | undefined;
  const workers: ChildProcess[] = [];
  const sim = await startSimulator({ port: 0, ...simOptions });
  const stack: FaultStack = {
    dir,
    sim,
    env: (extra = {}) => ({
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_'))),
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      SITECHAT_BASE_URL: sim.baseUrl,
      SITECHAT_API_KEY: DEMO.apiKey,
      SITECHAT_RUNS_DIR: join(dir, 'runs'),
      SITECHAT_PACER_DIR: join(dir, 'pacer'),
      SITECHAT_SITE_ID: DEMO.siteId,
      SITECHAT_RATE_LIMIT: '5',
      ...settings(),
      ...extra,
    }),
    async startServer() {
      server = await spawnDevServer({
        cliPath, port, dbFilename: join(dir, 'temporal.db'), namespaces: ['default'], dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG,
        logFile: join(dir, 'temporal.log'),
      });
    },
    async stopServer() {
      await server?.stop();
      server = undefined;
    },
    spawnWorker(extra = {}) {
      const child = spawn(process.execPath, [CLI, 'worker'], { env: stack.env(extra), stdio: ['ignore', 'ignore', 'pipe'] });
      failOnWarnings('sitechat worker', child);
      workers.push(child);
      return child;
    },
    cli(args, extra = {}) {
      const child = spawn(process.execPath, [CLI, ...args], { env: stack.env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
      failOnWarnings(`sitechat ${args.join(' ')}`, child);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      return { exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))), stdout: () => stdout, stderr: () => stderr };
    },
    writeDataset(name, rows, questions, turns = 1) {
      const path = join(dir, name);
      const lines = Array.from({ length: rows }, (_, i) => {
        const [q, must] = questions[i % questions.length] as readonly [string, string];
        const conversation = turns > 1 ? `c${Math.floor(i / turns) + 1},${(i % turns) + 1},` : '';
        return `r${i + 1},${conversation}"${q} (${i + 1})",${must}`;
      });
      const header = turns > 1 ? 'id,conversation,turn,question,must_include' : 'id,question,must_include';
      writeFileSync(path, [header, ...lines].join('\n') + '\n');
      return path;
    },
    async waitFor(done, what, said, ms = 180_000) {
      const deadline = Date.now() + ms;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; CLI said:\n${said()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async close() {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.map(exited));
      await server?.stop();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await stack.startServer();
  return stack;
}

/** The id of the row of a `writeDataset` dataset that asks `question` (row `rN` asks `… (N)`). */
export function rowOf(question: string): string {
  const n = /\((\d+)\)$/.exec(question)?.[1];
  if (!n) throw new Error(`not a question of a writeDataset dataset: ${question}`);
  return `r${n}`;
}

/** The JSON summary `sitechat run --json` printed, or an error with what the CLI said. */
export function printedSummary<T>(run: CliProcess, code: number | null): T {
  const out = run.stdout();
  const start = out.indexOf('{');
  if (start < 0) throw new Error(`sitechat run printed no summary (exit ${code}); it said:\n${run.stderr()}`);
  return JSON.parse(out.slice(start)) as T;
}
