import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../src/sim';
import { DEMO } from '../../src/sim/constants';
import { namespaceForFile } from '../helpers/namespace';
import { CLI } from '../helpers/cli';
import { failOnWarnings } from '../helpers/warnings';

const ROOT = join(__dirname, '..', '..');

interface Ran { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a CI runner does on a time-out or a cancelled job: `npx sitechat run …` in the project, then SIGTERM to the
 * whole process group. npm forwards the signal to its child, which got it already; the exit code that reaches the
 * shell must still be the documented one (3, cancelled), after the graceful cancel and its summary.
 */
describe('npx sitechat run under SIGTERM to its process group (real npx, Temporal dev server, simulator)', () => {
  let dir: string;
  let sim: SimulatorHandle;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-npx-'));
    // Answers take 1–8 s, so questions are in flight when the signal comes.
    sim = await startSimulator({ port: 0, latencyScale: 0.25 });
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 3 with the summary printed, and leaves no process behind', async () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_') && !k.startsWith('npm_')));
    const env = {
      ...clean,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: namespaceForFile(__filename),
      SITECHAT_RUNS_DIR: join(dir, 'runs'),
      // The suite's Temporal server is not this command's: its worker asks an API of the test's (the simulator and its
      // judge route), as a worker on a shared server must (an embedded simulator is refused there).
      SITECHAT_BASE_URL: sim.baseUrl,
      SITECHAT_API_KEY: DEMO.apiKey,
      SITECHAT_SITE_ID: DEMO.siteId,
      SITECHAT_EMAIL: 'ana@example.com',
      SITECHAT_JUDGE_BASE_URL: sim.judgeBaseUrl,
      SITECHAT_JUDGE_API_KEY: 'sim-judge-key',
      SITECHAT_JUDGE_MODEL: 'sim-judge',
      // npx installs the project's own bin into its cache first; a cache of our own, offline and without the
      // `prepare` script (which would rebuild dist/ under the other tests), keeps that a link made in a second.
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_ignore_scripts: 'true',
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    };
    const child = spawn('npx', ['sitechat', 'run', 'datasets/demo.csv', '--out', join(dir, 'report')], {
      cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    failOnWarnings('npx sitechat run', child);
    const pgid = child.pid as number;
    const ran = new Promise<Ran>((resolve) => {
      let stdout = '';
      let stderr = '';
      let signalled = false;
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        // Once rows are being answered: the signal a CI runner sends to the job's process group.
        if (!signalled && /progress: [1-9]\d*\/66/u.test(stderr)) {
          signalled = true;
          process.kill(-pgid, 'SIGTERM');
        }
      });
      child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
    const result = await ran;
    expect(result.stderr).toContain('SIGTERM: cancelling the run');
    expect(result.stderr).not.toContain('interrupted again');
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toMatch(/verdict\s+CANCELLED/u);
    const summary = JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { total: number; cancelled: boolean };
    expect(summary).toMatchObject({ total: 66, cancelled: true });
    // npx waited for its child: nothing of the group goes on writing after the shell got the exit code.
    expect(groupAlive(pgid)).toBe(false);
  });
});
