/**
 * `sitechat server` and DNS rebinding: a web page that points its own name at 127.0.0.1 reaches local ports with
 * `Host: evil.example:PORT`. The dev server's HTTP API refuses such a Host (403); the Web UI, which cannot be told to
 * check it, starts only with --ui (docs/deployment.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/temporal/devServerProcess';
import { CLI, sitechat } from '../helpers/cli';
import { childrenOf, nulSeparated } from '../helpers/procfs';

interface Started { child: ChildProcess; stderr: () => string; devServerArgs: string[] }

/** GET `path` on 127.0.0.1:`port` with the given Host header; the status (a port not listening yet is waited for). */
async function statusWithHost(port: number, path: string, host: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await get(port, path, host);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ECONNREFUSED' || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function get(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

/** The command line of `pid`'s only child (the dev server). */
function childArgs(pid: number): string[] {
  const [child] = childrenOf(pid);
  return child === undefined ? [] : nulSeparated(`/proc/${child}/cmdline`);
}

describe('sitechat server: Host-checked HTTP API, Web UI only with --ui', () => {
  let dir: string;
  const started: ChildProcess[] = [];
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-server-hosts-'));
  });
  afterAll(() => {
    for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(args: string[]): Promise<Started> {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
    const child = spawn(process.execPath, [CLI, 'server', '--port', String(await freePort()), '--db-filename', join(dir, `${started.length}.db`), '--log-file', join(dir, `${started.length}.log`), ...args], {
      cwd: dir, env: clean, stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const deadline = Date.now() + 90_000;
    while (!/export TEMPORAL_ADDRESS=/u.test(out)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`sitechat server did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { child, stderr: () => err, devServerArgs: childArgs(child.pid as number) };
  }

  async function stop(s: Started): Promise<void> {
    s.child.kill('SIGTERM');
    await new Promise((resolve) => s.child.once('exit', resolve));
  }

  it('by default: no Web UI, and the HTTP API refuses a foreign Host', async () => {
    const s = await start([]);
    try {
      expect(s.devServerArgs).toContain('--headless');
      expect(s.devServerArgs).not.toContain('--ui-port');
      const httpPort = Number(s.devServerArgs[s.devServerArgs.indexOf('--http-port') + 1]);
      expect(httpPort).toBeGreaterThan(0);
      const histories = '/api/v1/namespaces/default/workflows';
      expect(await statusWithHost(httpPort, histories, `evil.example:${httpPort}`)).toBe(403);
      expect(await statusWithHost(httpPort, histories, `127.0.0.1.evil.example:${httpPort}`)).toBe(403);
      expect(await statusWithHost(httpPort, histories, `127.0.0.1:${httpPort}`)).toBe(200);
      expect(await statusWithHost(httpPort, histories, `localhost:${httpPort}`)).toBe(200);
      expect(s.stderr()).not.toContain('Web UI');
    } finally {
      await stop(s);
    }
  });

  it('with --ui: the Web UI on 127.0.0.1 and a warning that says why it is off by default', async () => {
    const uiPort = await freePort();
    const s = await start(['--ui', '--ui-port', String(uiPort)]);
    try {
      expect(s.devServerArgs).toEqual(expect.arrayContaining(['--ui-ip', '127.0.0.1', '--ui-port', String(uiPort)]));
      expect(await statusWithHost(uiPort, '/', `127.0.0.1:${uiPort}`)).toBe(200);
      expect(s.stderr()).toContain(`Web UI at http://127.0.0.1:${uiPort}`);
      expect(s.stderr()).toContain('warning: the Web UI answers any Host header');
    } finally {
      await stop(s);
    }
  });

  it('refuses --ui-port without --ui, and --ui with --headless (exit 2)', async () => {
    // A free --port each: a regression would start a server, not take the default port from another one.
    const port = await sitechat(dir, ['server', '--port', String(await freePort()), '--ui-port', String(await freePort())]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--ui-port needs --ui');
    const both = await sitechat(dir, ['server', '--port', String(await freePort()), '--ui', '--headless']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--ui and --headless');
  });
});
