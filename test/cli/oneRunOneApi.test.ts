import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat, startSitechat, until, type Started } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';

interface Summary { runId: string; total: number; passed: number; error: number; provenance?: { answers: { from: string; host?: string } } }

/**
 * One run, one API, on a Temporal namespace shared by workers of two APIs: a run asks only the API it names (its
 * `sitechat worker` processes are the real API's; a worker of another simulator refuses its tasks), the embedded
 * simulator never joins a server its command did not start, and with no worker of the run's API the run ends with an
 * error naming both, instead of waiting for one.
 */
describe('one run, one API (built CLI, shared Temporal dev server, two simulators as two APIs)', () => {
  let dir: string;
  let real: SimulatorHandle;
  let other: SimulatorHandle;
  let shell: Record<string, string>;
  const workers: Started[] = [];
  const workerOf = async (api: SimulatorHandle): Promise<Started> => {
    const w = startSitechat(dir, ['worker'], { ...shell, SITECHAT_BASE_URL: api.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_POLL_INTERVAL_MS: '100' });
    workers.push(w);
    await until('a polling worker', () => w.stderr().includes('worker polling'));
    return w;
  };
  let right: Promise<Started> | undefined;
  /** The real API's worker: one for the file, started by the first test that needs it. */
  const rightWorker = (): Promise<Started> => (right ??= workerOf(real));
  const dataset = (rows: number): string => {
    const file = join(dir, `q${rows}.csv`);
    writeFileSync(file, ['id,question,must_include', ...Array.from({ length: rows }, (_, i) => `q${i},How much does the Personal plan cost?,$9.99`)].join('\n'));
    return file;
  };

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-oneapi-'));
    [real, other] = await Promise.all([startSimulator({ port: 0, latencyScale: 0.02 }), startSimulator({ port: 0, latencyScale: 0.02 })]);
    // A shell of the cluster: its Temporal server and results, no API of its own.
    shell = {
      TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_RUNS_DIR: join(dir, 'runs'),
      SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_EMAIL: 'ana@example.com',
    };
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await Promise.all([real?.close(), other?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an embedded simulator never joins a server its command did not start: run and watch --worker exit 2, nothing asked', async () => {
    const ran = await sitechat(dir, ['run', dataset(2)], shell);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('no SITECHAT_BASE_URL: this command\'s worker would ask a simulator of its own');
    expect(ran.stderr).not.toContain('started evaluation run');
    const watched = await sitechat(dir, ['watch', '20261122-0412-5f3a9c', '--worker'], shell);
    expect(watched.code, watched.stderr).toBe(2);
    expect(watched.stderr).toContain('which it did not start');
    // Without TEMPORAL_ADDRESS, `--no-worker` would start a server no worker polls: refused before anything starts.
    const { TEMPORAL_ADDRESS: _address, ...noServer } = shell;
    const orphan = await sitechat(dir, ['run', dataset(2), '--no-worker'], noServer);
    expect(orphan.code, orphan.stderr).toBe(2);
    expect(orphan.stderr).toContain('--no-worker leaves the questions to workers elsewhere');
    expect(existsSync(join(dir, '.sitechat'))).toBe(false);
  });

  it('a run detached from a shell without SITECHAT_BASE_URL, followed by watch: every row asked of the workers\' API, watch starts no worker', async () => {
    await rightWorker();
    const started = await sitechat(dir, ['run', dataset(6), '--no-worker', '--detach', '--json'], shell);
    expect(started.code, started.stderr).toBe(0);
    const { runId } = JSON.parse(started.stdout) as { runId: string };
    const watched = await sitechat(dir, ['watch', runId, '--json'], shell);
    expect(watched.code, watched.stderr).toBe(0);
    // watch followed only: no simulator (and so no worker) of its own.
    expect(watched.stderr).not.toContain('embedded simulator');
    const summary = JSON.parse(watched.stdout) as Summary;
    expect(summary).toMatchObject({ runId, total: 6, passed: 6, error: 0 });
    expect(real.stats().submitted).toBe(6);
    expect(summary.provenance?.answers).toEqual({ from: 'api', host: new URL(real.baseUrl).host });
  });

  it('a worker of another API refuses the run\'s tasks: it asks nothing, the run\'s API answers every row', async () => {
    await rightWorker();
    const wrong = await workerOf(other);
    real.reset();
    // The run names its API (SITECHAT_BASE_URL here, as the README's cluster steps set it).
    const ran = await sitechat(dir, ['run', dataset(30), '--no-worker', '--json', '--concurrency', '10'], { ...shell, SITECHAT_BASE_URL: real.baseUrl });
    expect(ran.code, ran.stderr).toBe(0);
    const summary = JSON.parse(ran.stdout) as Summary;
    expect(summary).toMatchObject({ total: 30, passed: 30, error: 0 });
    // The run's provenance is its own API, whichever worker prepared it.
    expect(summary.provenance?.answers).toEqual({ from: 'api', host: new URL(real.baseUrl).host });
    expect(real.stats().submitted).toBe(30);
    expect(other.stats().requests).toEqual({});
    // It did take tasks of the run (a task goes to any worker polling first), and said why it refused them.
    // The wording is pinned in test/unit/temporal/apiGuard.test.ts; here, that it names both APIs in the worker's log.
    expect(wrong.stderr()).toContain(`the run asks ${real.baseUrl}, `);
    expect(wrong.stderr()).toContain(`this worker asks ${other.baseUrl}; refused`);
  });

  it('with no worker of the run\'s API the run ends, its error naming both APIs, and asks nothing', async () => {
    const w = await rightWorker();
    w.child.kill('SIGTERM');
    await w.exit;
    if (!workers.some((x) => x.child.exitCode === null && x !== w)) await workerOf(other);
    real.reset();
    const ran = await sitechat(dir, ['run', dataset(3), '--no-worker', '--json'], { ...shell, SITECHAT_BASE_URL: real.baseUrl });
    expect(ran.code, ran.stderr).toBe(3);
    expect(ran.stderr).toContain(`no worker of the run's API (${real.baseUrl}) took the call: workers asking ${other.baseUrl} refused it 20 times`);
    expect(real.stats().requests).toEqual({});
    expect(other.stats().requests).toEqual({});
    // Every row recorded, not sent, with the reason.
    const runId = /started evaluation run (\S+)/u.exec(ran.stderr)?.[1] as string;
    const rows = readFileSync(join(dir, 'runs', runId, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { outcome: string; error?: string });
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ outcome: 'error', error: expect.stringContaining('no worker of the run\'s API') as unknown });
  });
});
