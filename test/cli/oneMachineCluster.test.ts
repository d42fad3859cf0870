import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { freePort } from '../../src/temporal/devServerProcess';
import { CLI, sitechat, startSitechat as start, until, type Started as Proc } from '../helpers/cli';

/**
 * The README's one-machine cluster, step by step: `sitechat server`, two `sitechat worker` processes, and a run with
 * `--no-worker` (the file store, which one machine shares; the simulator stands in for the API).
 */
describe('one-machine cluster: sitechat server + two workers + run --no-worker (real processes)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  const procs: Proc[] = [];
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-cluster-'));
    sim = await startSimulator({ port: 0, latencyScale: 0.02 });
  });
  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a dataset on the workers and exits with its verdict; server and workers stop cleanly on SIGTERM', async () => {
    const server = start(dir, ['server', '--port', String(await freePort()), '--headless', '--db-filename', join(dir, 'temporal.db')], {});
    procs.push(server);
    await until('the export line', () => /export TEMPORAL_ADDRESS=\S+/u.test(server.stdout()));
    const address = /export TEMPORAL_ADDRESS=(\S+)/u.exec(server.stdout())?.[1] as string;
    expect(server.stderr()).toContain('per-site fairness');

    const api = { SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_EMAIL: 'ana@example.com' };
    const shared = { TEMPORAL_ADDRESS: address, SITECHAT_RUNS_DIR: join(dir, 'runs') };
    const workers = [start(dir, ['worker'], { ...shared, ...api }), start(dir, ['worker'], { ...shared, ...api })];
    procs.push(...workers);
    for (const w of workers) await until('a polling worker', () => w.stderr().includes('worker polling'));

    const file = join(dir, 'questions.csv');
    writeFileSync(file, ['id,question,must_include', ...Array.from({ length: 8 }, (_, i) => `q${i},How much does the Personal plan cost?,$9.99`)].join('\n'));
    // The run's own process holds no key: the workers do.
    const ran = await sitechat(dir, ['run', file, '--no-worker', '--fail-under', '0.5', '--json'], { ...shared, SITECHAT_BASE_URL: sim.baseUrl, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_EMAIL: 'ana@example.com' });
    expect(ran.code, ran.stderr).toBe(0);
    const summary = JSON.parse(ran.stdout) as { runId: string; total: number; passed: number; gate: { verdict: string } };
    expect(summary).toMatchObject({ total: 8, passed: 8, gate: { verdict: 'passed' } });
    expect(sim.stats().submitted).toBe(8);
    expect(readFileSync(join(dir, 'runs', summary.runId, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(8);

    for (const p of [...workers, server]) p.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((w) => w.exit))).toEqual([0, 0]);
    expect(await server.exit).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: stopping the Temporal dev server');
  });

  it('a taken port exits 3 and says what to do', async () => {
    const holder = start(dir, ['server', '--port', String(await freePort()), '--headless', '--db-filename', join(dir, 'a.db')], {});
    procs.push(holder);
    await until('the export line', () => /export TEMPORAL_ADDRESS=\S+/u.test(holder.stdout()));
    const port = (/export TEMPORAL_ADDRESS=\S+:(\d+)/u.exec(holder.stdout()))?.[1] as string;
    const second = await sitechat(dir, ['server', '--port', port, '--headless', '--db-filename', join(dir, 'b.db')]);
    expect(second.code).toBe(3);
    expect(second.stderr).toContain('--port');
    holder.child.kill('SIGTERM');
    expect(await holder.exit).toBe(0);
    expect((await sitechat(dir, ['server', '--port', '70000'])).code).toBe(2);
  });
});
