import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/follow/follow';
import { summaryTable } from '../../../src/cli/follow/summaryTable';
import { summarize } from '../../../src/analysis/summary';
import type { GateResult, RunSummary } from '../../../src/domain/results';
import { iterate, meta, row } from '../reports/fixtures';

async function summary(extra: Partial<RunSummary> = {}): Promise<RunSummary> {
  return { ...(await summarize(meta(), iterate([row(0), row(1, { outcome: 'failed' })]))), ...extra };
}
const settings = { maxErrorRate: 0, allowSideEffectFailures: false };

describe("the CLI's printed verdict and exit code", () => {
  it.each([
    [{ verdict: 'passed', passed: true, reasons: [], warnings: [] }, /verdict {4}PASSED/, 0],
    [{ verdict: 'failed', passed: false, reasons: ['pass rate 50.0% is below 90.0%', '2 sessions could not be closed'], warnings: [] }, /verdict {4}FAILED\n {11}- pass rate 50\.0% is below 90\.0%\n {11}- 2 sessions could not be closed/, 1],
    [{ verdict: 'cancelled', passed: false, reasons: ['the run was cancelled: 3 rows were skipped (no answer: not sent, or abandoned by a cancel)'], warnings: [] }, /verdict {4}CANCELLED\n {11}- the run was cancelled/, 3],
    [{ verdict: 'no_threshold', passed: true, reasons: [], warnings: ['no quality threshold set: give --fail-under or --baseline to judge the answers'] }, /verdict {4}no quality threshold set \(pass --fail-under or --baseline/, 0],
  ] as [GateResult, RegExp, number][])('%o', async (gate, printed, code) => {
    const s = await summary({ gate, gateSettings: settings, cancelled: gate.verdict === 'cancelled' });
    const text = summaryTable(s);
    expect(text).toMatch(printed);
    expect(text).toContain('gate       fail-under none, max-error-rate 0.0%, side-effect failures fail, baseline none');
    if (gate.verdict !== 'passed') expect(text).not.toContain('PASSED');
    expect(exitCodeFor({ cancelled: gate.verdict === 'cancelled', summary: s })).toBe(code);
  });

  it('prints the reason a gate failed under --fail-under, and every setting it applied', async () => {
    const gate: GateResult = { verdict: 'failed', passed: false, reasons: ['pass rate 66.7% (2 / 3 graded) is below 100.0% (--fail-under)'], warnings: [] };
    const text = summaryTable(await summary({ gate, gateSettings: { failUnder: 1, maxErrorRate: 0, maxUncertainRate: 0.1, allowSideEffectFailures: false } }));
    expect(text).toMatch(/verdict {4}FAILED\n {11}- pass rate 66\.7% \(2 \/ 3 graded\) is below 100\.0% \(--fail-under\)\n/u);
    expect(text).toContain('gate       fail-under 100.0%, max-error-rate 0.0%, max-uncertain-rate 10.0%, side-effect failures fail, baseline none');
  });

  it('prints no gate for a backfill', async () => {
    const s = await summary({ kind: 'backfill' });
    expect(summaryTable(s)).not.toMatch(/verdict|gate/);
    expect(exitCodeFor({ cancelled: false, summary: s })).toBe(0);
    expect(exitCodeFor({ cancelled: true, summary: { ...s, cancelled: true } })).toBe(3);
  });

  it('says when --baseline latest found nothing to compare with, and what it passed over', async () => {
    const s = await summary({
      baselineSelection: { requested: 'latest', skipped: [{ runId: 'old', reason: 'another model' }], skippedMore: 0, message: 'no compatible earlier run', warnings: [] },
    });
    expect(summaryTable(s)).toContain('baseline   none: no compatible earlier run\n           passed over: old (another model)');
  });
});

describe('the summary table, item by item', () => {
  it('prints the McNemar p-value as the gate reasons do (3 significant digits), not 0.000 beside 7.45e-9', async () => {
    const s = await summary({
      baseline: { runId: 'b', passRate: 1, delta: -0.5, compared: 40, regressed: ['r1'], fixed: [], mcnemar: { b: 30, c: 0, pValue: 7.45e-9, significant: true, alpha: 0.05 } },
      gate: { verdict: 'failed', passed: false, reasons: ['significant regression against b (McNemar p = 7.45e-9): 30 rows regressed, 0 fixed: r1'], warnings: [] },
    });
    const text = summaryTable(s);
    expect(text).toContain('McNemar p = 7.45e-9 (significant)');
    expect(text).not.toContain('p=0.000');
  });

  it('lists each error type with its first message, most frequent first', async () => {
    const s = { ...(await summary()), errorsByType: { TimedOut: 1, BadRequestError: 3 } };
    const text = summaryTable(s, { BadRequestError: '400 invalid payload: unknown model (row q1)', TimedOut: 'no answer within 30s (row q4)' });
    expect(text).toContain('errors     BadRequestError 3: 400 invalid payload: unknown model (row q1)\n           TimedOut 1: no answer within 30s (row q4)');
    expect(summaryTable(s)).toContain('errors     BadRequestError 3\n           TimedOut 1');
  });
});
