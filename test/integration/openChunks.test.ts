import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/domain/run';
import { progressQuery } from '../../workflows/signals';
import { startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';

/**
 * A chunk hands its place on as soon as it has sent its last question, but stays open until its answers are in and
 * its sessions closed. Where closes (or feedback) are slower than questions, hand-overs alone left every chunk of the
 * run open at once (70 in the 10,000-row benchmark, ≈ 2 MiB of workflow state each in the worker). The run keeps at
 * most 8 open.
 */
describe('open chunks are bounded (real Temporal + simulator)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(__filename, { rateLimit: 0, latencyScale: 0.01, maxMessageLength: 16_000 }, { ratePerSecond: 0, pollIntervalMs: 50 });
    await stack.startWorkers();
  });
  afterAll(async () => stack?.close());

  it('12 pages whose closes take 8 s: never more than 8 chunks open, every row recorded', async () => {
    // Pages break at 256 KiB of rows: 16 rows of ~15 KiB questions make a page, 192 rows make 12.
    const padding = ' Please answer briefly.'.repeat(650);
    const rows = Array.from({ length: 192 }, (_, i) => `r${i + 1},"How much does the Personal plan cost?${padding}"`);
    stack.sim.setFaults({ 'sessions.close': { extraLatencyMs: 8_000 } });
    const handle = await startRun(stack, writeDataset(stack, 'id,question', rows), { concurrency: 200, feedback: 'none' });
    let peak = 0;
    let chunks = 0;
    const sampling = (async () => {
      for (;;) {
        const p = await handle.query(progressQuery).catch(() => undefined);
        if (p) {
          peak = Math.max(peak, p.chunksOpen ?? 0);
          chunks = p.chunks;
          if (p.phase === 'finishing' || p.phase === 'done') return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const result = (await handle.result()) as RunResult;
    await sampling;
    expect(chunks).toBe(12);
    expect(peak).toBe(8);
    expect(result.summary.total).toBe(192);
    expect(stack.sim.stats().requests['sessions.close']?.['200']).toBe(192);
  }, 180_000);
});
