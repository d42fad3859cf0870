import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processIdentity } from '../../src/temporal/processIdentity';
import { CLI, sitechat } from '../helpers/cli';

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
      [{ ...judge, SITECHAT_JUDGE_RPM: '-1' }, 'SITECHAT_JUDGE_RPM must be a number >= 0'],
      [{ ...judge, SITECHAT_JUDGE_MAX_ATTEMPTS: '0' }, 'SITECHAT_JUDGE_MAX_ATTEMPTS must be a number >= 1'],
      [{ SITECHAT_GRADERS_DIR: join(dir, 'no-such-dir') }, 'SITECHAT_GRADERS_DIR must be an existing directory'],
    ];
    for (const [extra, message] of cases) {
      const ran = await sitechat(dir, ['worker'], { ...base, ...extra });
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain(message);
    }
  });
});
