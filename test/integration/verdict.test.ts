import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WEAK_MODEL } from '../../src/sim/kb/models';
import type { RunSummary } from '../../src/domain/results';
import { cancelSignal, progressQuery } from '../../workflows/signals';
import type { RunResult } from '../../src/domain/run';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

const HEADER = 'id,question,must_include,tags';
const QUESTIONS = [
  'How much does the Personal plan cost?,$9.99,pricing',
  'How much storage do I get for free?,5 GB,storage',
  'Can I get a refund for my annual subscription?,14 days,billing',
  'Which payment methods do you accept?,PayPal,billing',
];
function rows(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `r${i + 1},${QUESTIONS[i % QUESTIONS.length]}`);
}

function reports(dir: string): Record<'md' | 'html' | 'junit' | 'summary', string> {
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  return { md: read('report.md'), html: read('report.html'), junit: read('junit.xml'), summary: read('summary.json') };
}

describe('the verdict tells the truth (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));
  afterEach(() => {
    delete process.env.GITHUB_STEP_SUMMARY;
  });

  it('a run where most async requests fail ends FAILED naming the errors, even with --fail-under met by the rest', async () => {
    stack.sim.setFaults({ 'chat.async': { asyncFailRate: 0.6 } });
    const stepSummary = join(stack.runsDir, 'step-summary.md');
    writeFileSync(stepSummary, '');
    process.env.GITHUB_STEP_SUMMARY = stepSummary;
    // Not re-asked (--reask-failed 0): the failures stay, as from a service that fails for longer than the re-asks.
    const handle = await startRun(stack, writeDataset(stack, HEADER, rows(30)), { failUnder: 0.5, reaskFailed: 0 });
    const { summary, reportDir } = (await handle.result()) as RunResult;
    expect(summary.error).toBeGreaterThan(8);
    expect(summary.errorsByType.RequestFailed).toBe(summary.error);
    expect(summary.gate?.verdict).toBe('failed');
    // The gate's and the cause's wording is pinned in test/unit/reports/gate.test.ts and cause.test.ts; here, their facts.
    const reason = summary.gate?.reasons[0] ?? '';
    expect(reason.startsWith(`${summary.error} of 30 rows errored`)).toBe(true);
    expect(reason).toContain(`RequestFailed ${summary.error}`);
    expect(reason).toContain('--max-error-rate');
    expect(summary.gateSettings).toEqual({ failUnder: 0.5, maxErrorRate: 0, maxUncertainRate: 0.1, allowSideEffectFailures: false });
    const out = reports(reportDir);
    expect(out.md).toContain('**Quality gate: FAILED** ❌');
    // The cause the errors share leads the gate's message: a CI page shows it first.
    const gateFailure = /name="quality gate: FAILED">\s*<failure message="([^"]*)"/u.exec(out.junit)?.[1] ?? '';
    expect(gateFailure).toMatch(/^cause: \d+ of \d+ errored rows: /u);
    expect(gateFailure).toContain('(failed to call rag service)');
    expect(gateFailure).toContain(`; ${summary.error} of 30 rows errored`);
    const step = readFileSync(stepSummary, 'utf8');
    expect(step).toContain('**Quality gate: FAILED** ❌');
    expect(step).toContain('RequestFailed');
  });

  it('a cancelled run is CANCELLED in every report, never PASSED', async () => {
    stack.sim.setFaults({ 'chat.async': { processingDelayMs: 400 } });
    const handle = await startRun(stack, writeDataset(stack, HEADER, rows(40)), { concurrency: 4, failUnder: 0 });
    for (;;) {
      const p = await handle.query(progressQuery);
      if (Object.values(p.counts).reduce((a, b) => a + b, 0) >= 6) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await handle.signal(cancelSignal);
    const result = (await handle.result()) as RunResult;
    expect(result.cancelled).toBe(true);
    expect(result.summary).toMatchObject({ cancelled: true, gate: { verdict: 'cancelled', passed: false } });
    const out = reports(result.reportDir);
    expect((JSON.parse(out.summary) as RunSummary).cancelled).toBe(true);
    expect(out.md).toContain('**Quality gate: CANCELLED**');
    expect(out.html).toContain('Quality gate: CANCELLED');
    expect(out.junit).toContain('type="RunCancelled"');
    for (const text of Object.values(out)) expect(text).not.toContain('PASSED');
  });

  it('--baseline latest skips a run of another model and a cancelled run, and says which it chose and why', async () => {
    const dataset = writeDataset(stack, HEADER, rows(12));
    const same = (await (await startRun(stack, dataset)).result()) as RunResult;
    const other = (await (await startRun(stack, dataset, { model: WEAK_MODEL })).result()) as RunResult;
    stack.sim.setFaults({ 'chat.async': { processingDelayMs: 400 } });
    const cancelling = await startRun(stack, dataset, { concurrency: 2 });
    await cancelling.signal(cancelSignal);
    const cancelled = (await cancelling.result()) as RunResult;
    expect(cancelled.summary.skipped).toBeGreaterThan(0);
    stack.sim.setFaults({});

    const now = (await (await startRun(stack, dataset, { baseline: 'latest' })).result()) as RunResult;
    const sel = now.summary.baselineSelection;
    expect(now.summary.baseline?.runId).toBe(same.runId);
    expect(sel?.chosen?.runId).toBe(same.runId);
    // The reasons' wording is pinned in test/unit/reports/baseline.test.ts; here, that they name what decided.
    expect(sel?.chosen?.reason).toMatch(/^newest finished run /u);
    expect(sel?.chosen?.reason).toContain('the site default model; not cancelled');
    expect(sel?.skipped).toEqual([
      { runId: cancelled.runId, reason: expect.stringMatching(/^cancelled \(\d+ rows skipped\)$/) as string },
      { runId: other.runId, reason: `another model (model ${WEAK_MODEL}; this run uses the site default model)` },
    ]);
    const out = reports(now.reportDir);
    expect(out.md).toContain(`Compared with **${same.runId}**`);
    expect(out.md).toContain(`- ${other.runId}: another model`);
    expect(out.html).toContain(`Compared with <b>${same.runId}</b>`);
    expect(out.junit).toContain(`<property name="baseline" value="${same.runId}"/>`);
  });

  it('an explicit baseline of another model is compared with a warning; regressed rows show the baseline answer', async () => {
    const dataset = writeDataset(stack, HEADER, rows(24));
    const good = (await (await startRun(stack, dataset)).result()) as RunResult;
    const weak = (await (await startRun(stack, dataset, { model: WEAK_MODEL, baseline: good.reportDir })).result()) as RunResult;
    const s = weak.summary;
    const warnings = s.baselineSelection?.warnings ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^baseline ${good.runId} used the site default model; .*${WEAK_MODEL}$`, 'u'));
    expect(s.gate?.warnings).toEqual(expect.arrayContaining(warnings));
    const regressed = s.baseline?.regressed ?? [];
    expect(regressed.length).toBeGreaterThan(0);
    const out = reports(weak.reportDir);
    const baseRow = readResults(good.reportDir).find((r) => r.id === regressed[0]);
    expect(out.md).toContain(`### Row ${regressed[0]} · failed (was passed in ${good.runId})`);
    expect(out.md).toContain(`**Baseline answer (${good.runId}, passed):**`);
    expect(out.md).toContain((baseRow?.answer ?? '').slice(0, 40));
    expect(out.junit).toContain('type="regression"');
  });

  it('feedback and closes are retried through 429s until they succeed: nothing is given up, the gate passes', async () => {
    // Before: each call was retried in place 4 times, then recorded as failed for good.
    stack.sim.setFaults({ 'feedback.submit': { rateLimitBurst: 5 }, 'sessions.close': { rateLimitBurst: 5 } });
    const handle = await startRun(stack, writeDataset(stack, HEADER, rows(2)), { failUnder: 0 });
    const { summary } = (await handle.result()) as RunResult;
    expect(summary.feedback).toMatchObject({ failed: 0 });
    expect(summary.feedback.good + summary.feedback.bad).toBe(2);
    expect(summary.sessions).toEqual({ opened: 2, closed: 2, closeFailed: 0 });
    expect(summary.gate?.verdict).toBe('passed');
    const stats = stack.sim.stats();
    expect(stats.requests['feedback.submit']?.['429']).toBe(5);
    expect(stats.requests['sessions.close']?.['429']).toBe(5);
  });

  it('feedback and closes the API refuses for good reach the summary, the reports and the gate', async () => {
    stack.sim.setFaults({ 'feedback.submit': { rejectRate: 1 }, 'sessions.close': { rejectRate: 1 } });
    const handle = await startRun(stack, writeDataset(stack, HEADER, rows(2)), { failUnder: 0 });
    const { summary, reportDir } = (await handle.result()) as RunResult;
    expect(summary.feedback.failed).toBe(2);
    expect(summary.sessions).toEqual({ opened: 2, closed: 0, closeFailed: 2 });
    expect(summary.gate?.verdict).toBe('failed');
    expect(summary.gate?.reasons).toEqual([
      'feedback was not recorded for 2 rows (see the report; --allow-side-effect-failures accepts this)',
      '2 sessions could not be closed (see the report; --allow-side-effect-failures accepts this)',
    ]);
    const out = reports(reportDir);
    expect(out.md).toContain('## Feedback not recorded (2)');
    expect(out.md).toMatch(/## Sessions left open \(2\)[\s\S]*- session \S+: .*400/);
  });
});
