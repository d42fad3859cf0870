import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/domain/run';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { exited, spawnWorker } from '../helpers/workerProcess';

/** PENDING_ACTIVITY_STATE_STARTED: a worker has the task. */
const STARTED = 2;

describe('durability: a worker killed while it finalizes the run', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack(__filename);
    dir = mkdtempSync(join(tmpdir(), 'sitechat-finalize-'));
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is replaced within a minute: another worker finishes the run', async () => {
    // The step summary is a named pipe nobody reads: appending to it blocks, so the first worker is caught inside
    // finalizeRun (as on a slow disk or a large run) when it is killed.
    const fifo = join(dir, 'step-summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const first = spawnWorker(stack, { GITHUB_STEP_SUMMARY: fifo });
    const rows = Array.from({ length: 6 }, (_, i) => `r${i + 1},How much does the Personal plan cost?,$9.99`);
    const handle = await startRun(stack, writeDataset(stack, 'id,question,must_include', rows), { concurrency: 6 });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      if (pending.some((a) => a.activityType?.name === 'finalizeRun' && a.state === STARTED)) break;
      if (Date.now() > deadline) throw new Error('finalizeRun never started');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Long enough for the first worker to have sent heartbeats of its own.
    await new Promise((r) => setTimeout(r, 3000));
    first.kill('SIGKILL');
    await exited(first);
    const killedAt = Date.now();
    const second = spawnWorker(stack, { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') });
    try {
      const { summary, reportDir } = (await handle.result()) as RunResult;
      const stalledMs = Date.now() - killedAt;
      expect(stalledMs).toBeLessThan(60_000);
      expect(summary.total).toBe(6);
      expect(summary.passed).toBe(6);
      expect(readResults(reportDir)).toHaveLength(6);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  }, 150_000);
});
