import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli';
import { failOnWarnings } from '../helpers/warnings';

/**
 * The CLI's in-process worker serves metrics too: `sitechat run` with SITECHAT_METRICS_ADDR (port 0) prints its
 * endpoint, which serves the runner's and the Temporal SDK's metrics while the run goes on, and the command still
 * exits when the run is over (the endpoint closes with it).
 */
describe('metrics of the in-process worker of `sitechat run` (built CLI, real Temporal dev server, embedded simulator)', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm test does)');
    dir = mkdtempSync(join(tmpdir(), 'sitechat-embedded-metrics-'));
    writeFileSync(join(dir, 'q.csv'), 'question\nHow much does the Personal plan cost?\nHow much storage do I get for free?\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves runner and SDK metrics during the run, then exits 0', async () => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SITECHAT_') && !k.startsWith('TEMPORAL_')));
    const child = spawn(process.execPath, [CLI, 'run', 'q.csv', '--allow-ungraded'], {
      cwd: dir,
      env: {
        // The embedded server too: an embedded simulator's worker joins no server its command did not start.
        ...clean,
        // Answers in a few seconds: the run lasts long enough to be scraped while it goes on.
        SITECHAT_SIM_LATENCY_SCALE: '0.5', SITECHAT_METRICS_ADDR: '127.0.0.1:0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    failOnWarnings('sitechat run', child);
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let exited = false;
    void exit.then(() => (exited = true));

    const seen = { url: '', runner: false, sdk: false };
    while (!exited && !(seen.runner && seen.sdk)) {
      seen.url ||= /metrics of the in-process worker at (http:\/\/\S+\/metrics)/.exec(stderr)?.[1] ?? '';
      if (seen.url) {
        const text = await fetch(seen.url).then((r) => r.text(), () => '');
        seen.runner ||= /^sitechat_api_requests_total\{/m.test(text);
        seen.sdk ||= /^temporal_worker_task_slots_available\{/m.test(text);
      }
      await new Promise((resolve) => setTimeout(resolve, 100)); // a scrape interval, not a timing assertion
    }
    expect(seen.url, stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(seen, stderr).toMatchObject({ runner: true, sdk: true });
    expect(await exit, stderr).toBe(0);
    // Closed with the command.
    await expect(fetch(seen.url)).rejects.toThrow();
  });
});
