import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../workflows/types';
import { startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';

const HEADER = 'id,conversation,turn,question,must_include';
const QUESTIONS = [
  'How much does the Personal plan cost?,$9.99',
  'How much storage do I get for free?,5 GB',
  'Can I get a refund for my annual subscription?,14 days',
  'Which payment methods do you accept?,PayPal',
  'How do I reset my password?,Forgot password',
];

/**
 * A server that counts the status route, not each request's path (spec §8 leaves it open): with 20 questions
 * in flight, polling each every 200 ms would be 100 polls/s on one route. The worker's limiter keys every
 * status poll of a site on the route, so the run stays at 5/s and never sees a 429.
 */
describe('runner against a route-scoped rate limit (real Temporal + simulator)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(__filename, { rateLimit: 5, rateLimitScope: 'route', latencyScale: 0.02 }, { ratePerSecond: 5, pollIntervalMs: 200 });
    await stack.startWorkers();
  });
  afterAll(async () => stack?.close());

  it('30 rows at concurrency 20 finish with 0 × 429', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `r${i + 1},,,${QUESTIONS[i % QUESTIONS.length]}`);
    const handle = await startRun(stack, writeDataset(stack, HEADER, rows), { concurrency: 20, answerTimeoutMs: 120_000 });
    const { summary } = (await handle.result()) as RunResult;
    const stats = stack.sim.stats();
    expect(summary.passed + summary.failed).toBe(30);
    expect(stats.submitted).toBe(30);
    expect(stats.rateLimited).toBe(0);
    expect(stats.requests['requests.status']?.['429']).toBeUndefined();
    expect(Math.max(...Object.values(stats.peakRatePerPath))).toBeLessThanOrEqual(5);
  }, 180_000);
});
