import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Stack } from './stack';
import { failOnWarnings } from './warnings';

const CLI = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');

/**
 * `sitechat worker` in its own process (from the build, as a deployment runs it), for crash tests. A Node warning on its
 * stderr fails the test file.
 */
export function spawnWorker(stack: Stack, extraEnv: Record<string, string> = {}): ChildProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [CLI, 'worker'], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: stack.namespace,
      SITECHAT_BASE_URL: stack.config.baseUrl,
      SITECHAT_API_KEY: stack.config.apiKey,
      SITECHAT_RUNS_DIR: stack.runsDir,
      SITECHAT_RATE_LIMIT: String(stack.config.ratePerSecond),
      SITECHAT_POLL_INTERVAL_MS: String(stack.config.pollIntervalMs),
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  failOnWarnings('sitechat worker', child);
  return child;
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}
