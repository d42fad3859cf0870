import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expectNoWarnings, failOnWarnings } from './warnings';

export const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

export interface Ran { code: number | null; stdout: string; stderr: string }

export interface SitechatOptions {
  /**
   * Close the reading end of stdout at once, as `sitechat … | head -1` does once it has its line: every write the
   * command makes to stdout then fails with EPIPE. @default false
   */
  closedStdout?: boolean;
}

/** The caller's environment without its SITECHAT_* / TEMPORAL_* settings, the simulator fast, then `env`. */
function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
  return { ...clean, SITECHAT_SIM_LATENCY_SCALE: '0.02', ...env };
}

/**
 * Runs `sitechat …` as a user would, in `cwd`, without the caller's SITECHAT_* / TEMPORAL_* settings (embedded
 * defaults) unless `env` gives them. Rejects when the command printed a Node warning on stderr: no process of the
 * runner may.
 */
export function sitechat(cwd: string, args: string[], env: Record<string, string> = {}, options: SitechatOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    // Node needs far longer to start than this takes: the pipe is closed before the command writes to it.
    if (options.closedStdout) child.stdout.destroy();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      try {
        expectNoWarnings(`sitechat ${args.join(' ')}`, stderr);
        resolve({ code, stdout, stderr });
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

/** A `sitechat …` that keeps running (a server, a worker): its process, its output so far, and its exit. */
export interface Started {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/**
 * Starts `sitechat …` in its own process and leaves it running, in the environment `sitechat()` gives. A Node warning
 * on its stderr fails the test file.
 */
export function startSitechat(cwd: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  failOnWarnings(`sitechat ${args.join(' ')}`, child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, stdout: () => stdout, stderr: () => stderr, exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/**
 * Resolves with `get()`'s first value that is neither undefined nor false (a match, or a condition that holds),
 * polled; rejects naming `what` after `ms`.
 */
export async function until<T>(what: string, get: () => T | false | undefined, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = get();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
