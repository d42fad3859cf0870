import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from 'pg';
import type { RowResult, RunSummary } from '../../src/reports/types';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { freePort, spawnDevServer, type DevServerProcess } from '../../src/temporal/devServerProcess';
import { locateTemporalCli } from '../../src/temporal/cliLocator';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../../src/temporal/localServer';
import { CLI } from '../helpers/cli';
import { describeWithPostgres } from '../helpers/usePostgres';
import { exited } from '../helpers/workerProcess';

/**
 * The PostgreSQL results store goes away twice during a run (issue "nothing lost and nothing asked twice when the
 * database misbehaves"): two `sitechat worker` processes share one database, which is stopped as a crash would stop
 * it (`pg_ctl stop -m immediate`) for 30 s a quarter of the way in and for 90 s later on. The run must wait both out:
 * every row recorded once, no question asked twice, every session closed, the reports' counts true, and the CLI
 * saying what it waits for.
 */

const ROWS = 150;
const QUESTIONS = [
  ['How much does the Personal plan cost?', '$9.99'],
  ['How much storage do I get for free?', '5 GB'],
  ['Can I get a refund for my annual subscription?', '14 days'],
];

describeWithPostgres('fault suite: the results store down for 30 s and for 90 s under 2 workers', (pg) => {
  let dir: string;
  let sim: SimulatorHandle;
  let server: DevServerProcess | undefined;
  let storeUrl: string;
  const workers: ChildProcess[] = [];

  const env = (port: number): NodeJS.ProcessEnv => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_'))),
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    SITECHAT_BASE_URL: sim.baseUrl,
    SITECHAT_API_KEY: DEMO.apiKey,
    SITECHAT_RUNS_DIR: join(dir, 'runs'),
    SITECHAT_PACER_DIR: join(dir, 'pacer'),
    SITECHAT_SITE_ID: DEMO.siteId,
    SITECHAT_RATE_LIMIT: '5',
    SITECHAT_STORE_URL: storeUrl,
  });
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-store-faults-'));
    const located = await locateTemporalCli();
    if (!located.path) throw new Error(`no Temporal CLI: ${located.notes.join('; ')}`);
    port = await freePort();
    server = await spawnDevServer({
      cliPath: located.path, port, dbFilename: join(dir, 'temporal.db'), namespaces: ['default'], dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG,
      logFile: join(dir, 'temporal.log'),
    });
    sim = await startSimulator({ port: 0, latencyScale: 0.05, rateLimit: 5, seed: 7 });
    storeUrl = await pg.freshDatabase();
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await Promise.all(workers.map(exited));
    await server?.stop();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits out both outages: every row once, nothing asked twice, every session closed, true counts, exit = verdict', async () => {
    const dataset = join(dir, 'questions.csv');
    const lines = Array.from({ length: ROWS }, (_, i) => {
      const [q, must] = QUESTIONS[i % QUESTIONS.length] as [string, string];
      return `r${i + 1},"${q} (${i + 1})",${must}`;
    });
    writeFileSync(dataset, ['id,question,must_include', ...lines].join('\n') + '\n');

    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, [CLI, 'worker'], { env: { ...env(port), SITECHAT_RUNS_DIR: join(dir, `worker-${i}`) }, stdio: ['ignore', 'ignore', 'ignore'] });
      workers.push(child);
    }
    const run = spawn(process.execPath, [CLI, 'run', dataset, '--no-worker', '--json', '--concurrency', '20', '--fail-under', '0', '--out', join(dir, 'report')], { env: env(port), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    run.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    run.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const runExit = new Promise<number | null>((resolve) => run.on('exit', (code) => resolve(code)));

    const waitFor = async (done: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 180_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; CLI said:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const outage = async (seconds: number): Promise<void> => {
      await pg.server().halt();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      await pg.server().resume();
    };
    await waitFor(() => sim.stats().chatRequests.completed >= ROWS / 4, 'a quarter of the answers');
    await outage(30);
    await waitFor(() => sim.stats().chatRequests.completed >= (ROWS * 2) / 3, 'two thirds of the answers');
    await outage(90);

    const code = await runExit;
    const start = stdout.indexOf('{');
    expect(start, `no summary (exit ${code}); the CLI said:\n${stderr}`).toBeGreaterThanOrEqual(0);
    const summary = JSON.parse(stdout.slice(start)) as RunSummary;
    expect(code, stderr).toBe(0);
    expect(summary.gate?.verdict).toBe('passed');
    // The CLI said what the run waited for, and when it went on.
    expect(stderr).toMatch(/cannot reach the results store/);
    expect(stderr).toMatch(/results store is reachable again/);
    expect(stderr).not.toContain(storeUrl);

    // Every row exactly once, in the reports and in the database.
    const results = readFileSync(join(dir, 'report', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowResult);
    expect(results).toHaveLength(ROWS);
    expect(new Set(results.map((r) => r.id)).size).toBe(ROWS);
    expect(summary).toMatchObject({ total: ROWS, missing: 0, skipped: 0, error: 0, timedOut: 0 });
    const db = new Client({ connectionString: storeUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: string; ids: string }>('SELECT count(*) AS n, count(DISTINCT row_id) AS ids FROM run_rows WHERE run_id = $1', [summary.runId]);
      expect(rows[0]).toEqual({ n: String(ROWS), ids: String(ROWS) });
    } finally {
      await db.end();
    }

    // Nothing asked twice: the simulator saw each question once, and the summary says so.
    const stats = sim.stats();
    expect(stats.submitted).toBe(ROWS);
    expect(stats.duplicateSubmissions).toBe(0);
    expect(summary.askedTwice?.count ?? 0).toBe(0);
    // Every session closed, and the report's counts are the simulator's.
    expect(stats.sessions.total).toBe(ROWS);
    expect(stats.sessions.total - stats.sessions.closed).toBe(0);
    expect(summary.sessions).toMatchObject({ opened: ROWS, closed: stats.sessions.closed, closeFailed: 0 });
    for (const r of results) expect(r.feedback, `row ${r.id}`).toMatch(/^(good|bad)$/);
    expect(stats.rateLimited).toBe(0);
  }, 600_000);
});
