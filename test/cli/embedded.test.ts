import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSameProcess, processIdentity, type ProcessIdentity } from '../../src/temporal/processIdentity';
import { CLI, sitechat } from '../helpers/cli';
import { failOnWarnings } from '../helpers/warnings';

describe('the embedded dev server’s pid file', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-embedded-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a stale .sitechat/temporal.json whose pid now belongs to another process leaves that process alone', async () => {
    const bystander = spawn('sleep', ['120'], { stdio: 'ignore' });
    try {
      const id = processIdentity(bystander.pid ?? 0);
      if (!id) throw new Error('no /proc identity for the bystander');
      mkdirSync(join(dir, '.sitechat'));
      // The file a SIGKILLed sitechat left behind; since then the server's pid went to an unrelated process.
      writeFileSync(join(dir, '.sitechat', 'temporal.json'), JSON.stringify({
        // `pid`/`serverPid`: the bare pids earlier versions wrote (and acted on without checking).
        address: '127.0.0.1:1', pid: 999_999, serverPid: id.pid, owner: { pid: 999_999, startTicks: 1, cmdline: 'node sitechat run' },
        server: { pid: id.pid, startTicks: id.startTicks - 1, cmdline: 'temporal server start-dev' },
      }));
      writeFileSync(join(dir, 'one.csv'), 'id,question,must_include\nq1,How much does the Personal plan cost?,$9.99\n');
      const ran = await sitechat(dir, ['run', 'one.csv']);
      expect(ran.code, ran.stderr).toBe(0);
      expect(processIdentity(id.pid)).toEqual(id);
    } finally {
      bystander.kill('SIGKILL');
    }
  }, 120_000);

  it('a worker with 0 question slots exits 2 at once instead of never finishing', async () => {
    const ran = await sitechat(dir, ['worker'], { SITECHAT_BASE_URL: 'http://127.0.0.1:9/api/v1', SITECHAT_API_KEY: 'k', SITECHAT_MAX_CONCURRENT_ASKS: '0', TEMPORAL_ADDRESS: '127.0.0.1:9' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('SITECHAT_MAX_CONCURRENT_ASKS must be a whole number >= 1');
  });

  it('a worker with any unusable numeric setting exits 2 at once, naming it', async () => {
    const base = { SITECHAT_BASE_URL: 'http://127.0.0.1:9/api/v1', SITECHAT_API_KEY: 'k', TEMPORAL_ADDRESS: '127.0.0.1:9' };
    const judge = { SITECHAT_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', SITECHAT_JUDGE_API_KEY: 'j', SITECHAT_JUDGE_MODEL: 'm' };
    const cases: [Record<string, string>, string][] = [
      [{ SITECHAT_MAX_CONCURRENT_ASKS: '2.5' }, 'SITECHAT_MAX_CONCURRENT_ASKS must be a whole number >= 1'],
      [{ SITECHAT_POLL_INTERVAL_MS: '0' }, 'SITECHAT_POLL_INTERVAL_MS must be a number >= 1'],
      [{ SITECHAT_RATE_LIMIT: '-5' }, 'SITECHAT_RATE_LIMIT must be a number >= 0'],
      [{ SITECHAT_HEAP_GROWTH_PERCENT: 'lots' }, 'SITECHAT_HEAP_GROWTH_PERCENT must be a number >= 0'],
      [{ ...judge, SITECHAT_JUDGE_RPM: '-1' }, 'SITECHAT_JUDGE_RPM must be a number >= 0'],
      [{ ...judge, SITECHAT_JUDGE_MAX_ATTEMPTS: '0' }, 'SITECHAT_JUDGE_MAX_ATTEMPTS must be a number >= 1'],
      [{ ...judge, SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: 'an hour' }, 'SITECHAT_JUDGE_MAX_RETRY_AFTER_MS must be a number >= 0'],
      [{ ...judge, SITECHAT_JUDGE_TIMEOUT_MS: '300000' }, 'SITECHAT_JUDGE_TIMEOUT_MS must be a number from 1 to 240000'],
      [{ SITECHAT_GRADERS_DIR: join(dir, 'no-such-dir') }, 'SITECHAT_GRADERS_DIR must be an existing directory'],
      [{ SITECHAT_STORE_OUTAGE_LIMIT: '90' }, 'SITECHAT_STORE_OUTAGE_LIMIT must be a duration above zero such as "30m" or "2h", got "90"'],
      [{ SITECHAT_STORE_OUTAGE_LIMIT: '0s' }, 'SITECHAT_STORE_OUTAGE_LIMIT must be a duration above zero'],
    ];
    for (const [extra, message] of cases) {
      const ran = await sitechat(dir, ['worker'], { ...base, ...extra });
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain(message);
    }
  });

  it('--detach is refused while the server and simulator would be embedded in the command, before anything starts', async () => {
    writeFileSync(join(dir, 'two.csv'), 'id,question\nq1,How much does the Personal plan cost?\n');
    const ran = await sitechat(dir, ['run', 'two.csv', '--detach']);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toMatch(/--detach: needs a Temporal server and an API that outlive this command.*TEMPORAL_ADDRESS.*sitechat worker/);
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} to \`sitechat run\` cancels the run, then stops the embedded Temporal server`, async () => {
      const runDir = mkdtempSync(join(dir, 'signal-'));
      const rows = Array.from({ length: 40 }, (_, i) => `q${i},How much does the Personal plan cost?`);
      writeFileSync(join(runDir, 'many.csv'), ['id,question', ...rows].join('\n') + '\n');
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
      const child = spawn(process.execPath, [CLI, 'run', 'many.csv', '--concurrency', '2'], { cwd: runDir, env: { ...clean, SITECHAT_SIM_LATENCY_SCALE: '0.5' }, stdio: ['ignore', 'pipe', 'pipe'] });
      failOnWarnings('sitechat run', child);
      let stderr = '';
      child.stdout.resume();
      const started = new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('started evaluation run')) resolve();
      }));
      const exitedWith = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await Promise.race([started, exitedWith]);
      const server = (JSON.parse(readFileSync(join(runDir, '.sitechat', 'temporal.json'), 'utf8')) as { server: ProcessIdentity }).server;
      expect(isSameProcess(server)).toBe(true);
      child.kill(signal);
      const code = await exitedWith;
      expect(stderr, stderr).toContain(`${signal}: cancelling the run`);
      // Cancelled: sessions closed, reports written, exit 3 — and nothing of the embedded setup left running.
      expect(code, stderr).toBe(3);
      expect(isSameProcess(server), 'the embedded Temporal server was stopped').toBe(false);
      expect(existsSync(join(runDir, '.sitechat', 'temporal.json'))).toBe(false);
    }, 120_000);
  }
});
