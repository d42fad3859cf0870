import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { CLI, sitechat, startSitechat, until, type Started } from '../helpers/cli';
import { namespaceForFile } from '../helpers/namespace';

/**
 * The docs' way to follow a scheduled run: `schedule trigger` prints the run's workflow id (with the schedule time's
 * colons), `watch` takes that or the run id, `schedule describe` shows the run with its verdict and report. The run
 * goes on on the namespace's `sitechat worker` (a simulator stands in for the API); `watch`, from a shell without
 * SITECHAT_BASE_URL, only follows it.
 */
describe('following a scheduled run (built CLI, real Temporal dev server, a worker process, simulator)', () => {
  let dir: string;
  let env: Record<string, string>;
  let api: SimulatorHandle;
  let worker: Started;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-schedwatch-'));
    env = { TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: namespaceForFile(__filename), SITECHAT_RUNS_DIR: join(dir, 'runs') };
    api = await startSimulator({ port: 0, latencyScale: 0.02 });
    worker = startSitechat(dir, ['worker'], { ...env, SITECHAT_BASE_URL: api.baseUrl, SITECHAT_API_KEY: DEMO.apiKey, SITECHAT_POLL_INTERVAL_MS: '100' });
    await until('a polling worker', () => worker.stderr().includes('worker polling'));
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('watch accepts what schedule trigger prints, and the run id; describe lists the run with verdict and report', async () => {
    const dataset = join(dir, 'nightly.csv');
    writeFileSync(dataset, 'question,must_include\nHow much does the Personal plan cost?,$9.99\nHow much storage do I get for free?,5 GB\n');
    const created = await sitechat(dir, ['schedule', 'create', 'nightly', '--cron', '0 2 * * *', '--dataset', dataset, '--id', 'watch-me', '--fail-under', '0.1'], env);
    expect(created.code, created.stderr).toBe(0);

    const triggered = await sitechat(dir, ['schedule', 'trigger', 'watch-me'], env);
    expect(triggered.code, triggered.stderr).toBe(0);
    const printed = /started (sitechat-evaluation-watch-me-\S+Z);/u.exec(triggered.stdout)?.[1] as string;
    expect(printed).toMatch(/T\d{2}:\d{2}:\d{2}Z$/u);
    const runId = /follow it with: npx sitechat watch (\S+)/u.exec(triggered.stdout)?.[1] as string;
    expect(runId).toBe(printed.replace('sitechat-evaluation-', '').replace(/:/gu, ''));

    // The namespace's worker runs the scheduled run; watch starts none (nor a simulator) of its own.
    const watched = await sitechat(dir, ['watch', printed], env);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/verdict\s+PASSED/u);
    expect(watched.stderr).not.toContain('embedded simulator');
    expect(api.stats().submitted).toBe(2);
    expect(existsSync(join(dir, 'runs', runId, 'summary.json'))).toBe(true);

    const byRunId = await sitechat(dir, ['watch', runId, '--json'], env);
    expect(byRunId.code, byRunId.stderr).toBe(0);
    expect(JSON.parse(byRunId.stdout)).toMatchObject({ runId, total: 2, gate: { verdict: 'passed' } });

    // Cancelling a run that has finished cancels nothing: it says so, prints the verdict and exits with it.
    const cancelled = await sitechat(dir, ['cancel', runId], env);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stderr).toContain(`run ${runId} had already finished: nothing was cancelled`);
    expect(cancelled.stdout).toMatch(/verdict\s+PASSED/u);
    expect(api.stats().submitted).toBe(2);

    const described = await sitechat(dir, ['schedule', 'describe', 'watch-me'], env);
    expect(described.code, described.stderr).toBe(0);
    expect(described.stdout).toContain(`recent       ${runId}  passed  ${join(dir, 'runs', runId)}`);
    expect(described.stdout).toContain(`follow       npx sitechat watch ${runId}`);

    const missing = await sitechat(dir, ['watch', 'watch-me-2020-01-01T000000Z', '--no-worker'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('npx sitechat runs');
    // The only Temporal CLI named is the one this project brings.
    expect(missing.stderr.replaceAll('npx sitechat temporal', '')).not.toMatch(/\btemporal workflow/u);
    expect((await sitechat(dir, ['watch', 'a/b'], env)).code).toBe(2);

    // Paused: no next times (Temporal still computes them, but nothing starts).
    expect((await sitechat(dir, ['schedule', 'pause', 'watch-me'], env)).code).toBe(0);
    const paused = await sitechat(dir, ['schedule', 'describe', 'watch-me'], env);
    // The lines' wording is pinned in test/unit/schedules/format.test.ts.
    expect(paused.stdout).toMatch(/state +paused/u);
    expect(paused.stdout).toContain('schedule unpause watch-me');
    expect(paused.stdout).not.toMatch(/next +\d{4}-/u);
    expect((await sitechat(dir, ['schedule', 'delete', 'watch-me'], env)).code).toBe(0);
  });

  it('watch and cancel of a finished run whose gate failed print its verdict and exit with its code (1)', async () => {
    const dataset = join(dir, 'failing.csv');
    writeFileSync(dataset, 'question,must_include\nHow much does the Personal plan cost?,$1234.56\n');
    // The namespace's worker runs it (its API is the simulator this shell names).
    const shell = { ...env, SITECHAT_BASE_URL: api.baseUrl, SITECHAT_SITE_ID: DEMO.siteId, SITECHAT_EMAIL: 'ana@example.com' };
    const ran = await sitechat(dir, ['run', dataset, '--no-worker', '--fail-under', '100%'], shell);
    expect(ran.code, ran.stderr).toBe(1);
    const runId = /started evaluation run (\S+)/u.exec(ran.stderr)?.[1] as string;
    const submitted = api.stats().submitted;

    const watched = await sitechat(dir, ['watch', runId], env);
    expect(watched.code, watched.stderr).toBe(1);
    expect(watched.stdout).toMatch(/verdict\s+FAILED/u);

    const cancelled = await sitechat(dir, ['cancel', runId], env);
    expect(cancelled.code, cancelled.stderr).toBe(1);
    expect(cancelled.stderr).toContain(`run ${runId} had already finished: nothing was cancelled`);
    expect(cancelled.stdout).toMatch(/verdict\s+FAILED/u);
    expect(api.stats().submitted).toBe(submitted);
  });

  it('sitechat temporal passes arguments, terminal and exit code through, and keeps the secrets out', async () => {
    const listed = await sitechat(dir, ['temporal', 'workflow', 'list', '--namespace', env.TEMPORAL_NAMESPACE as string, '--query', "WorkflowId STARTS_WITH 'sitechat-evaluation-watch-me'"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('sitechat-evaluation-watch-me-');

    // A stand-in CLI that shows what it got: its arguments, its environment, and an exit code of its own.
    const fake = join(dir, 'fake-temporal');
    writeFileSync(fake, '#!/bin/sh\necho "args: $*"\nenv\nexit 7\n');
    chmodSync(fake, 0o755);
    const ran = await sitechat(dir, ['temporal', 'workflow', '--help', '-V'], {
      ...env, TEMPORAL_CLI_PATH: fake, SITECHAT_API_KEY: 'sk-live-abcdefgh', SITECHAT_JUDGE_API_KEY: 'judge-secret-123',
      SITECHAT_STORE_URL: 'postgres://u:pw-secret@db/x',
    });
    expect(ran.code).toBe(7);
    expect(ran.stdout).toContain('args: workflow --help -V');
    expect(ran.stdout).toContain(`TEMPORAL_ADDRESS=${env.TEMPORAL_ADDRESS}`);
    for (const secret of ['sk-live-abcdefgh', 'judge-secret-123', 'pw-secret']) expect(ran.stdout).not.toContain(secret);
  });
});
