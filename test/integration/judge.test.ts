import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/api/secret';
import type { JudgeSettings } from '../../src/grading/judge/settings';
import type { RowResult } from '../../src/domain/results';
import type { RunResult } from '../../src/domain/run';
import { historyText } from '../helpers/history';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';

const JUDGE_KEY = 'sk-judge-integration-SECRET-9d2f';
const HEADER = 'id,question,expected,rubric';
/** Three answers the simulator gets right, one whose reference is wrong (so the correctness judge fails it). */
const ROWS = [
  'r1,How much does the Personal plan cost?,$9.99 per month,mentions $9.99 per month',
  'r2,How much storage do I get for free?,The Free plan includes 5 GB of storage,mentions 5 GB of storage',
  'r3,Can I get a refund for my annual subscription?,Annual plans are refunded within 14 days of purchase,mentions a refund within 14 days',
  'r4,Which payment methods do you accept?,Only gold bars delivered by courier,mentions PayPal',
];

function judgeSettings(stack: Stack, overrides: Partial<JudgeSettings> = {}): JudgeSettings {
  return {
    baseUrl: stack.sim.judgeBaseUrl, apiKey: new Secret(JUDGE_KEY), model: 'sim-judge',
    rpm: 120, timeoutMs: 5000, maxAttempts: 6, maxRetryAfterMs: 60_000, temperature: 0, jsonMode: true, ...overrides,
  };
}

const judged = (r: RowResult) => (r.assertions ?? []).filter((a) => a.judge !== undefined);

/** Every file under a directory, as text (reports, results, cache entries). */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('LLM judge assertions (real Temporal + simulator judge route)', () => {
  let stack: Stack;
  const restartWorkers = async (judge: Partial<JudgeSettings> = {}): Promise<void> => {
    await stack.workers?.shutdown();
    await stack.startWorkers({ judge: judgeSettings(stack, judge) });
  };

  beforeAll(async () => {
    stack = await startStack(__filename);
    await stack.startWorkers({ judge: judgeSettings(stack) });
  });
  afterAll(async () => stack?.close());
  beforeEach(() => {
    stack.sim.reset();
    stack.sim.setFaults({});
  });

  it('grades llm-rubric and llm-correctness end to end, paced, through injected 429s and 500s; a re-run is served from the cache', async () => {
    const dataset = writeDataset(stack, HEADER, ROWS);
    stack.sim.setFaults({ 'judge.chat': { rateLimitBurst: 3, failRate: 0.25 } });
    const started = Date.now();
    const first = (await (await startRun(stack, dataset, { assertions: [{ type: 'llm-correctness' }] })).result()) as RunResult;

    expect(first.summary).toMatchObject({ total: 4, passed: 3, failed: 1, error: 0 });
    const rows = readResults(first.reportDir);
    for (const r of rows) {
      expect(judged(r).map((a) => a.type)).toEqual(['llm-rubric', 'llm-correctness']);
      for (const a of judged(r)) expect(a.judge).toMatchObject({ model: 'sim-judge', cached: false, tokens: expect.any(Number) });
    }
    const r4 = rows.find((r) => r.id === 'r4');
    expect(r4?.outcome).toBe('failed');
    expect(judged(r4 as RowResult).find((a) => a.type === 'llm-correctness')).toMatchObject({ pass: false, judge: { verdict: 'fail', reason: expect.stringMatching(/content words of the reference/) } });

    const stats = stack.sim.stats();
    // One verdict per judged assertion; each 429/500 was retried by the activity retry policy.
    expect(stats.judge.calls).toBe(8);
    expect(stats.requests['judge.chat']?.['429']).toBe(3);
    expect(stats.requests['judge.chat']?.['500'] ?? 0).toBe(stats.faults.errors);
    // 120/min = 2/s on the judge queue (task-queue and worker limits); Temporal's limiter lets a few seconds' worth
    // burst above it (measured: 4–5 in the busiest second; the provider counts per minute), and 13+ calls (verdicts
    // and retries) took several seconds.
    expect(stats.peakRatePerPath['judge.chat']).toBeLessThanOrEqual(6);
    expect(Date.now() - started).toBeGreaterThan(3000);
    const tokens = rows.flatMap(judged).reduce((n, a) => n + (a.judge?.tokens ?? 0), 0);
    expect(first.summary.judge).toEqual({ calls: 8, cached: 0, tokens });
    expect(stats.feedback).toBe(4);

    // The same answers again: every verdict comes from the cache, no judge call is made.
    stack.sim.reset();
    stack.sim.setFaults({});
    const second = (await (await startRun(stack, dataset, { assertions: [{ type: 'llm-correctness' }] })).result()) as RunResult;
    expect(second.summary).toMatchObject({ passed: 3, failed: 1, judge: { calls: 0, cached: 8, tokens: 0 } });
    expect(stack.sim.stats().judge.calls).toBe(0);
    expect(stack.sim.stats().requests['judge.chat']).toBeUndefined();
    for (const r of readResults(second.reportDir)) for (const a of judged(r)) expect(a.judge?.cached).toBe(true);
  });

  it('a judge that always fails makes the rows `error` with the reason, sends no feedback for them, and never shows its key', async () => {
    await restartWorkers({ maxAttempts: 2 });
    try {
      stack.sim.setFaults({ 'judge.chat': { failRate: 1 } });
      const dataset = writeDataset(stack, HEADER, ROWS.slice(0, 2).map((r) => r.replace('mentions', 'says')));
      const handle = await startRun(stack, dataset);
      const { summary, reportDir } = (await handle.result()) as RunResult;
      expect(summary).toMatchObject({ total: 2, error: 2, passed: 0, failed: 0, errorsByType: { JudgeServerError: 2 } });
      for (const r of readResults(reportDir)) {
        expect(r.outcome).toBe('error');
        expect(r.errorType).toBe('JudgeServerError');
        // The message's wording is pinned by test/unit/grading and test/unit/activities/judgeFailure.test.ts.
        expect(r.error).toMatch(/^grading failed: 500 from the judge at /u);
        expect(r.error).toMatch(/: The server had an error.*\(gave up after 2 attempts\)$/u);
        expect(r.feedback).toBeUndefined();
      }
      const stats = stack.sim.stats();
      expect(stats.requests['judge.chat']).toEqual({ 500: 4 });
      expect(stats.feedback).toBe(0);
      expect(stats.sessions.closed).toBe(2);

      const histories = await Promise.all([handle.workflowId, `${handle.workflowId}/chunk-0`].map((id) => historyText(stack.client, id)));
      for (const text of histories) {
        expect(text).toContain('JudgeServerError');
        expect(text).not.toContain(JUDGE_KEY);
      }
      expect(allText(stack.runsDir)).not.toContain(JUDGE_KEY);
    } finally {
      await restartWorkers();
    }
  });
});
