import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/api/secret';
import type { JudgeSettings } from '../../src/grading/judge/settings';
import type { RowResult } from '../../src/domain/results';
import type { RunResult } from '../../src/domain/run';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { GRADED_HEADER, GRADED_ROWS } from '../helpers/uncertainRows';

/** pass, fail, and two rows the `reference` grader is uncertain about (test/helpers/uncertainRows.ts says why). */
const HEADER = GRADED_HEADER;
const ROWS = Object.values(GRADED_ROWS);
const UNSURE = ['unsure1', 'unsure2'];

const escalatedOf = (r: RowResult) => (r.assertions ?? []).filter((a) => a.escalated);

describe('escalation of uncertain rows to the judge (real Temporal + simulator and its judge route)', () => {
  let stack: Stack;
  const judge = (): JudgeSettings => ({
    baseUrl: stack.sim.judgeBaseUrl, apiKey: new Secret('sk-judge-escalation-test'), model: 'sim-judge',
    rpm: 0, timeoutMs: 5000, maxAttempts: 3, maxRetryAfterMs: 5000, temperature: 0, jsonMode: true,
  });

  beforeAll(async () => {
    stack = await startStack(__filename);
  });
  afterAll(async () => stack?.close());
  beforeEach(() => {
    stack.sim.reset();
    stack.sim.setFaults({});
  });

  it('without a judge: uncertain rows stay uncertain, get no feedback, and keep what a later label needs', async () => {
    await stack.workers?.shutdown();
    await stack.startWorkers({ judge: undefined });
    const dataset = writeDataset(stack, HEADER, ROWS);
    const { summary, reportDir } = (await (await startRun(stack, dataset)).result()) as RunResult;

    expect(summary).toMatchObject({ total: 4, passed: 1, failed: 1, uncertain: 2, graded: 2, passRate: 0.5, error: 0 });
    expect(summary.passed + summary.failed + summary.uncertain + summary.answered + summary.error + summary.timedOut + summary.skipped).toBe(4);
    expect(summary.escalated).toBeUndefined();
    const rows = readResults(reportDir);
    for (const r of rows.filter((x) => UNSURE.includes(x.id))) {
      expect(r.outcome).toBe('uncertain');
      expect(r.feedback).toBeUndefined();
      expect(r.requestId).toEqual(expect.any(String));
      expect(r.sessionId).toEqual(expect.any(String));
      expect(r.decision).toMatchObject({ verdict: 'uncertain', by: 'graders', reason: expect.stringMatching(/no judge configured to settle it$/) });
    }
    expect(rows.find((r) => r.id === 'fail')).toMatchObject({ outcome: 'failed', feedback: 'bad', decision: { verdict: 'fail', by: 'graders' } });
    const stats = stack.sim.stats();
    expect(stats.judge.calls).toBe(0);
    // Feedback for the two decided rows only; every session is closed all the same.
    expect(stats.feedback).toBe(2);
    expect(stats.sessions.closed).toBe(4);
    // 2 of 4 graded rows uncertain is above the default 10 %: the gate says so.
    expect(summary.gate?.reasons.join('\n')).toMatch(/2 of 4 graded rows are uncertain \(50\.0%\).*--max-uncertain-rate/);
  });

  it('with a judge: only the uncertain rows are escalated, the judge settles them, and the run shows the cost', async () => {
    await stack.workers?.shutdown();
    await stack.startWorkers({ judge: judge() });
    const dataset = writeDataset(stack, HEADER, ROWS);
    const { summary, reportDir } = (await (await startRun(stack, dataset)).result()) as RunResult;

    const stats = stack.sim.stats();
    // The judge route is the test double: exactly one call per uncertain row, none for the decided ones.
    expect(stats.judge.calls).toBe(UNSURE.length);
    const rows = readResults(reportDir);
    expect(rows.filter((r) => escalatedOf(r).length > 0).map((r) => r.id).sort()).toEqual(UNSURE);
    for (const r of rows.filter((x) => UNSURE.includes(x.id))) {
      expect(['passed', 'failed']).toContain(r.outcome);
      expect(r.decision).toMatchObject({ by: 'judge' });
      expect(escalatedOf(r)[0]).toMatchObject({ type: 'llm-correctness', judge: { model: 'sim-judge', cached: false } });
      expect(r.feedback).toBe(r.outcome === 'passed' ? 'good' : 'bad');
    }
    expect(summary.uncertain).toBe(0);
    const tokens = rows.flatMap(escalatedOf).reduce((n, a) => n + (a.judge?.tokens ?? 0), 0);
    expect(summary.escalated).toMatchObject({ rows: 2, unsettled: 0, calls: 2, cached: 0, tokens });
    expect((summary.escalated?.passed ?? 0) + (summary.escalated?.failed ?? 0)).toBe(2);
    expect(stats.feedback).toBe(4);
  });
});
