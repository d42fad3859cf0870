import { WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/sim/constants';
import type { RunResult } from '../../src/domain/run';
import { progressQuery, cancelSignal } from '../../workflows/signals';
import { DEMO_HEADER, DEMO_QUESTIONS, demoRows, readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

/** The first four demo questions, the ones these tests were written with. */
const rows = (n: number): string[] => demoRows(n, DEMO_QUESTIONS.slice(0, 4));

describe('run outcomes, faults and failures (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('records a request that keeps failing as `error` with the API\'s error string after its re-asks, and still closes every session', async () => {
    stack.sim.setFaults({ 'chat.async': { asyncFailRate: 1 } });
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, rows(3)));
    const { summary, reportDir } = (await handle.result()) as RunResult;
    expect(summary.error).toBe(3);
    for (const r of readResults(reportDir)) {
      expect(r.outcome).toBe('error');
      expect(r.error).toMatch(/^request failed: failed to call rag service \(/u);
      expect(r.error).toMatch(/ after 2 re-asks\)$/u);
      expect(r.reasked).toHaveLength(2);
      expect(r.feedback).toBeUndefined();
    }
    // Each row's first ask and its two re-asks (--reask-failed 2), each in a session of its own, each closed.
    expect(stack.sim.stats()).toMatchObject({ submitted: 9, feedback: 0, sessions: { total: 9, closed: 9 } });
  });

  it('retries injected 500s and 429s to success, without asking any question twice', async () => {
    stack.sim.setFaults({ 'chat.async': { rateLimitBurst: 3 }, 'requests.status': { failRate: 0.3 }, 'feedback.submit': { rateLimitBurst: 2 }, 'sessions.close': { failRate: 0.3 } });
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, rows(8)));
    const { summary } = (await handle.result()) as RunResult;
    const stats = stack.sim.stats();
    expect(summary.passed + summary.failed).toBe(8);
    expect(stats.rateLimited).toBeGreaterThanOrEqual(5);
    expect(stats.faults.errors).toBeGreaterThan(0);
    expect(stats.submitted).toBe(8);
    expect(stats.duplicateSubmissions).toBe(0);
    expect(stats.feedback).toBe(8);
    expect(stats.sessions.closed).toBe(8);
  });

  it('marks rows whose answer never comes as `timed_out`', async () => {
    stack.sim.setFaults({ 'chat.async': { processingDelayMs: 60_000 } });
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, rows(2)), { answerTimeoutMs: 1500 });
    const { summary, reportDir } = (await handle.result()) as RunResult;
    expect(summary.timedOut).toBe(2);
    for (const r of readResults(reportDir)) expect(r.error).toMatch(/no answer within/);
  });

  it.each([
    ['a bad API key', { apiKey: 'sk-not-a-key' }, {}, /401 invalid_api_key/],
    ['a plan without API access', { apiKey: DEMO.level1ApiKey }, { siteId: DEMO.level1SiteId }, /403 api_access_not_available_on_plan.*Level 2/s],
    ['an unknown site', {}, { siteId: 'no-such-site' }, /404 site not found/],
  ])('fails fast on %s with the API\'s reason, every row recorded', async (_what, worker, options, reason) => {
    await stack.workers?.shutdown();
    await stack.startWorkers(worker);
    try {
      const started = Date.now();
      const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, rows(4)), options);
      const err = await handle.result().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect(String((err as WorkflowFailedError).cause?.message)).toMatch(reason);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(stack.sim.stats().submitted).toBe(0);
      // Nothing is lost: every row is recorded as `error` with the reason, and the reports are written.
      const dir = /reports written to (.+)\)$/.exec(String((err as WorkflowFailedError).cause?.message))?.[1];
      const recorded = readResults(dir as string);
      expect(recorded).toHaveLength(4);
      for (const r of recorded) expect(r.outcome).toBe('error');
    } finally {
      await stack.workers?.shutdown();
      await stack.startWorkers();
    }
  });

  it('cancel mid-run: remaining rows `skipped`, every opened session closed, reports written', async () => {
    stack.sim.setFaults({ 'chat.async': { processingDelayMs: 400 } });
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, rows(60)), { concurrency: 4 });
    for (;;) {
      const p = await handle.query(progressQuery);
      if (Object.values(p.counts).reduce((a, b) => a + b, 0) >= 8) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await handle.signal(cancelSignal);
    const result = (await handle.result()) as RunResult;
    const { summary } = result;
    expect(result.cancelled).toBe(true);
    expect(summary.total).toBe(60);
    expect(summary.skipped).toBeGreaterThan(0);
    expect(summary.passed + summary.failed + summary.skipped + summary.error).toBe(60);
    const stats = stack.sim.stats();
    expect(stats.sessions.closed).toBe(stats.sessions.total);
    expect(readResults(result.reportDir)).toHaveLength(60);
  });
  it('continues as new between chunks on long runs: every row recorded once, counts carried over', async () => {
    const handle = await startRun(stack, writeDataset(stack, DEMO_HEADER, rows(250)), { concurrency: 20, chunksPerRun: 1 });
    const { summary, reportDir } = (await handle.result()) as RunResult;
    expect(summary.total).toBe(250);
    expect(summary.passed + summary.failed).toBe(250);
    expect(readResults(reportDir)).toHaveLength(250);
    const progress = await handle.query(progressQuery);
    expect(Object.values(progress.counts).reduce((a, b) => a + b, 0)).toBe(250);
    // Three pages, one per history: the run continued as new twice.
    const description = await handle.describe();
    expect(description.runId).not.toBe(handle.firstExecutionRunId);
    expect(stack.sim.stats().sessions.closed).toBe(250);
  });
});
