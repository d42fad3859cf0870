import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/domain/run';
import { DEMO_HEADER, demoRows, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';


/**
 * A server that counts the status route, not each request's path (spec §8 leaves it open): with 20 questions
 * in flight, polling each every 200 ms would be 100 polls/s on one route.
 */
describe('runner against a route-scoped rate limit (real Temporal + simulator)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(__filename, { rateLimit: 5, rateLimitScope: 'route', latencyScale: 0.02 }, { ratePerSecond: 5, pollIntervalMs: 200 });
  });
  afterAll(async () => stack?.close());
  beforeEach(async () => {
    await stack.workers?.shutdown();
    stack.sim.reset();
  });

  async function run30(): Promise<RunResult> {
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, demoRows(30)), { concurrency: 20, answerTimeoutMs: 120_000 });
    return (await handle.result()) as RunResult;
  }

  it('SITECHAT_POLL_SCOPE=route: 30 rows at concurrency 20 finish with 0 × 429', async () => {
    await stack.startWorkers({ pollScope: 'route' });
    const { summary } = await run30();
    const stats = stack.sim.stats();
    expect(summary.passed + summary.failed).toBe(30);
    expect(stats.submitted).toBe(30);
    expect(stats.rateLimited).toBe(0);
    expect(stats.requests['requests.status']?.['429']).toBeUndefined();
    expect(Math.max(...Object.values(stats.peakRatePerPath))).toBeLessThanOrEqual(5);
  }, 180_000);

  it('the default (per path, as the spec reads) switches a site to route pacing at its first 429 on a poll', async () => {
    await stack.startWorkers();
    const { summary } = await run30();
    const stats = stack.sim.stats();
    expect(summary.passed + summary.failed).toBe(30);
    expect(stats.submitted).toBe(30);
    // Only polls already on their way when the first 429 came back can get one: at most one per question in flight.
    const limited = stats.requests['requests.status']?.['429'] ?? 0;
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThanOrEqual(20);
    expect(stats.requests['chat.async']?.['429']).toBeUndefined();
  }, 180_000);
});
