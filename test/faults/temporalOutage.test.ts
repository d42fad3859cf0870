import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/follow/follow';
import type { RunSummary } from '../../src/domain/results';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { locateTemporalCli } from '../../src/temporal/cliLocator';
import { freePort, spawnDevServer, type DevServerProcess } from '../../src/temporal/devServerProcess';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../../src/temporal/localServer';
import { CLI, sitechat } from '../helpers/cli';
import { exited } from '../helpers/workerProcess';
import { failOnWarnings } from '../helpers/warnings';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A persistent dev server (its own port and database file), a `sitechat worker` and `sitechat run --no-worker`
 * following the run; the server is stopped for 30 s mid-run and started again on the same port and file.
 */
describe('the CLI outlives a Temporal outage', () => {
  let dir: string;
  let sim: SimulatorHandle;
  let server: DevServerProcess | undefined;
  let worker: ChildProcess | undefined;
  let cliPath: string;
  let port: number;
  let env: Record<string, string>;

  const startServer = async (): Promise<DevServerProcess> => spawnDevServer({
    cliPath, port, dbFilename: join(dir, 'temporal.db'), namespaces: ['default'], dynamicConfig: DEV_SERVER_DYNAMIC_CONFIG, logFile: join(dir, 'temporal.log'),
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitechat-outage-'));
    const located = await locateTemporalCli();
    if (!located.path) throw new Error('no Temporal CLI binary (globalSetup provisions one)');
    cliPath = located.path;
    port = await freePort();
    server = await startServer();
    // Answers take a second or more, so the run is mid-way when the server goes.
    sim = await startSimulator({ port: 0, rateLimit: 0, latencyScale: 0.5 });
    env = {
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`, SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId,
      SITECHAT_EMAIL: 'qa@example.com', SITECHAT_RUNS_DIR: join(dir, 'runs'), SITECHAT_POLL_INTERVAL_MS: '200',
    };
    worker = spawn(process.execPath, [CLI, 'worker'], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    failOnWarnings('sitechat worker', worker);
  });
  afterAll(async () => {
    worker?.kill('SIGTERM');
    if (worker) await exited(worker);
    await server?.stop();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says Temporal is unreachable and the run goes on, reconnects, and exits with the run verdict', async () => {
    const rows = Array.from({ length: 24 }, (_, i) => `r${i + 1},How much does the Personal plan cost?,$9.99`);
    writeFileSync(join(dir, 'q.csv'), ['id,question,must_include', ...rows].join('\n') + '\n');
    const ran = sitechat(dir, ['run', 'q.csv', '--no-worker', '--concurrency', '2', '--fail-under', '50%'], { ...env, SITECHAT_SIM_LATENCY_SCALE: '0.5' });
    for (let waited = 0; (sim.stats().submitted ?? 0) < 3; waited += 200) {
      // A guard, not a timing: on a loaded machine the worker takes a while to start.
      if (waited > 150_000) throw new Error('the run never started asking');
      await sleep(200);
    }
    await server?.stop();
    server = undefined;
    await sleep(30_000);
    server = await startServer();
    const { code, stderr } = await ran;
    expect(stderr).toMatch(/Temporal is unreachable .*the run goes on/);
    expect(stderr).toMatch(/reconnected to Temporal after \d+ s/);
    expect(stderr).not.toMatch(/the run failed/);
    const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs')).find((d) => /^\d{8}-/.test(d)) as string);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.total).toBe(24);
    expect(summary.passed + summary.failed + summary.error + summary.timedOut + summary.skipped).toBe(24);
    expect(code, stderr).toBe(exitCodeFor({ cancelled: false, summary }));
  }, 240_000);
});
