import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/domain/run';
import { progressQuery } from '../../workflows/signals';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { exited, spawnWorker } from '../helpers/workerProcess';

const QUESTIONS = [
  'How much does the Personal plan cost?,$9.99',
  'How much storage do I get for free?,5 GB',
  'Can I get a refund for my annual subscription?,14 days',
];

describe('durability: a worker killed with SIGKILL mid-run', () => {
  let stack: Stack;
  // Answers take 0.5–3 s, so questions are in flight when the worker dies.
  beforeAll(async () => { stack = await startStack(__filename, { latencyScale: 0.1 }, { pollIntervalMs: 200 }); });
  afterAll(async () => stack?.close());

  it('is replaced by another; the run completes, every row has exactly one result, and a question sent again is reported as asked twice', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `r${i + 1},${QUESTIONS[i % 3]}`);
    const dataset = writeDataset(stack, 'id,question,must_include', rows);
    const first = spawnWorker(stack);
    const handle = await startRun(stack, dataset, { concurrency: 6 });
    for (;;) {
      const p = await handle.query(progressQuery).catch(() => undefined);
      const done = p ? Object.values(p.counts).reduce((a, b) => a + b, 0) : 0;
      if (done >= 5 && (p?.inFlight ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    first.kill('SIGKILL');
    await exited(first);
    const second = spawnWorker(stack);
    try {
      const { summary, reportDir } = (await handle.result()) as RunResult;
      expect(summary.total).toBe(30);
      expect(summary.passed + summary.failed).toBe(30);
      const results = readResults(reportDir);
      expect(results).toHaveLength(30);
      expect(new Set(results.map((r) => r.id)).size).toBe(30);
      const stats = stack.sim.stats();
      // The results store (or the heartbeat) held the request ids of the questions in flight, so their retried asks
      // resumed polling. Only a question whose response arrived in the instant before its request id was written can
      // be sent again — there is no id to poll — and such a row is reported as asked twice, never hidden: every
      // second ask the simulator saw is in the summary's `askedTwice`, and there are at most as many as asks in flight.
      const twice = summary.askedTwice?.count ?? 0;
      expect(stats.duplicateSubmissions, `the simulator saw ${stats.duplicateSubmissions} second asks; the summary reports ${twice}`).toBeLessThanOrEqual(twice);
      expect(twice).toBeLessThanOrEqual(6);
      expect(stats.submitted).toBe(30 + stats.duplicateSubmissions);
      expect(stats.sessions.closed).toBe(30);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
    }
  });
});
