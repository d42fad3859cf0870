import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

export interface Ran { code: number | null; stdout: string; stderr: string }

export interface SitechatOptions {
  /**
   * Close the reading end of stdout at once, as `sitechat … | head -1` does once it has its line: every write the
   * command makes to stdout then fails with EPIPE. @default false
   */
  closedStdout?: boolean;
}

/** This process's environment without its SITECHAT_* / TEMPORAL_* settings, plus `env`: a user's shell with only those. */
function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
  return { ...clean, SITECHAT_SIM_LATENCY_SCALE: '0.02', ...env };
}

/**
 * Runs `sitechat …` as a user would, in `cwd`, without the caller's SITECHAT_* / TEMPORAL_* settings (embedded
 * defaults) unless `env` gives them.
 */
export function sitechat(cwd: string, args: string[], env: Record<string, string> = {}, options: SitechatOptions = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    // Node needs far longer to start than this takes: the pipe is closed before the command writes to it.
    if (options.closedStdout) child.stdout.destroy();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A long-running `sitechat …` (a server, a worker): its output so far, and its exit. */
export interface SitechatProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/** Starts `sitechat …` in the environment `sitechat()` gives it, and leaves it running. */
export function startSitechat(cwd: string, args: string[], env: Record<string, string> = {}): SitechatProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return { child, stdout: () => out, stderr: () => err, exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** Waits until `ok()` holds (a process's output, polled), failing after `ms` with what was awaited. */
export async function until(what: string, ok: () => boolean, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
