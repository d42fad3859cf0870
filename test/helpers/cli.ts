import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expectNoWarnings } from './warnings';

export const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

export interface Ran { code: number | null; stdout: string; stderr: string }

export interface SitechatOptions {
  /**
   * Close the reading end of stdout at once, as `sitechat … | head -1` does once it has its line: every write the
   * command makes to stdout then fails with EPIPE. @default false
   */
  closedStdout?: boolean;
}

/**
 * Runs `sitechat …` as a user would, in `cwd`, without the caller's SITECHAT_* / TEMPORAL_* settings (embedded
 * defaults) unless `env` gives them. Rejects when the command printed a Node warning on stderr: no process of the
 * runner may.
 */
export function sitechat(cwd: string, args: string[], env: Record<string, string> = {}, options: SitechatOptions = {}): Promise<Ran> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...clean, SITECHAT_SIM_LATENCY_SCALE: '0.02', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
