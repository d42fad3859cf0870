import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/temporal/devServerProcess';
import { runsOnGlibc } from '../../src/worker/memoryRelaunch';
import { CLI } from '../helpers/cli';
import { failOnWarnings } from '../helpers/warnings';

/** Where Node can restart a process in place (22.15 and later) and the C library reads MALLOC_ARENA_MAX. */
const canExec = typeof (process as unknown as { execve?: unknown }).execve === 'function';

interface Start { pid: number; arenas: string | null; execArgv: string[] }

/**
 * `sitechat worker` started as a deployment starts it, with a preload that writes one line each time the process
 * image starts (so a restart in place shows as a second line with the same pid). Nothing listens at its Temporal
 * address: the restart happens before it connects, and the line "metrics at …" marks that the worker went past it.
 */
describe.runIf(canExec && runsOnGlibc())('sitechat worker: settings only a process start can give (real process, Node 22.15+ on glibc)', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-relaunch-'));
    writeFileSync(join(dir, 'mark.js'), "require('node:fs').appendFileSync(process.env.MARK_FILE, JSON.stringify({ pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null, execArgv: process.execArgv }) + '\\n');\n");
  });
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function startWorker(name: string, env: Record<string, string>): Promise<{ pid: number; starts: Start[] }> {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SITECHAT_|TEMPORAL_|MALLOC_ARENA_MAX$|GLIBC_TUNABLES$|NODE_OPTIONS$)/u.test(k)));
    const mark = join(dir, `${name}.jsonl`);
    const child = spawn(process.execPath, [CLI, 'worker'], {
      cwd: dir,
      env: {
        ...clean,
        MARK_FILE: mark,
        TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
        SITECHAT_SKIP_TEMPORAL_PROVISION: '1',
        SITECHAT_BASE_URL: 'http://127.0.0.1:9/api/v1',
        SITECHAT_API_KEY: 'test-key',
        SITECHAT_RUNS_DIR: join(dir, 'runs'),
        SITECHAT_METRICS_ADDR: '127.0.0.1:0',
        ...env,
        NODE_OPTIONS: `--require ${join(dir, 'mark.js')}${env.NODE_OPTIONS ? ` ${env.NODE_OPTIONS}` : ''}`,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    failOnWarnings('sitechat worker', child);
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!stderr.includes('metrics at')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not get as far as its metrics endpoint: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    const starts = readFileSync(mark, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Start);
    return { pid: child.pid as number, starts };
  }

  it('restarts once, in place, with two malloc arenas and 16 MiB semi-spaces', async () => {
    const { pid, starts } = await startWorker('plain', {});
    expect(starts).toHaveLength(2);
    expect(starts.map((s) => s.pid)).toEqual([pid, pid]);
    expect(starts[0]).toMatchObject({ arenas: null });
    expect(starts[0]?.execArgv).not.toContain('--max-semi-space-size=16');
    expect(starts[1]).toMatchObject({ arenas: '2' });
    expect(starts[1]?.execArgv).toContain('--max-semi-space-size=16');
  });

  it('keeps what the deployer set and then does not restart', async () => {
    const { starts } = await startWorker('deployer', { MALLOC_ARENA_MAX: '8', NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatchObject({ arenas: '8' });
  });
});
