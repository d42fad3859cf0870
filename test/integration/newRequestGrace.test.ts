import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/domain/run';
import { DEMO_HEADER, demoRows, readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

/** A deployment whose status lookup does not know a new request id at once (SITECHAT_NEW_REQUEST_GRACE_MS). */
describe('new request ids the API does not know yet (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('a deployment whose status lookup does not know a new request id for 300 ms: every row is answered', async () => {
    // Polls every 100 ms: the first polls of each question land in the window and get 404 `request not found`.
    await stack.workers?.shutdown();
    await stack.startWorkers({ pollIntervalMs: 100 });
    stack.sim.setFaults({ 'requests.status': { newRequestNotFoundMs: 300 } });
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, demoRows(30)));
    const { summary, reportDir } = (await handle.result()) as RunResult;
    const rows = readResults(reportDir);
    expect(rows.filter((r) => r.outcome === 'error').map((r) => r.error)).toEqual([]);
    expect(summary.passed + summary.failed).toBe(30);
    expect(stack.sim.stats().requests['requests.status']?.['404']).toBeGreaterThanOrEqual(30);
    expect(stack.sim.stats().submitted).toBe(30);
  });
});
