import { describe, expect, it } from 'vitest';
import { evaluateGate, gateSettingsOf } from '../../../src/analysis/gate';
import { mcnemarExact } from '../../../src/analysis/stats';
import { summarize } from '../../../src/analysis/summary';
import type { BaselineComparison, RunSummary } from '../../../src/domain/results';
import { iterate, meta, row } from './fixtures';

async function summary(passed: number, failed: number, extra: Partial<RunSummary> = {}): Promise<RunSummary> {
  const rows = [...Array.from({ length: passed }, () => 'passed' as const), ...Array.from({ length: failed }, () => 'failed' as const)];
  return { ...(await summarize(meta(), iterate(rows.map((outcome, i) => row(i, { outcome }))))), ...extra };
}

function comparison(regressed: number, fixed: number): BaselineComparison {
  return {
    runId: 'base',
    passRate: 0.9,
    delta: -0.1,
    compared: 100,
    regressed: Array.from({ length: regressed }, (_, i) => `r${i}`),
    fixed: Array.from({ length: fixed }, (_, i) => `f${i}`),
    mcnemar: mcnemarExact(regressed, fixed),
  };
}

describe('evaluateGate', () => {
  it('names a regressed row not asked again by --confirm, in the singular, and why the verdict did not need it', async () => {
    const baseline = { ...comparison(1, 0), confirmation: { k: 2, rows: 0, questions: 0, reproduced: [], notReproduced: [], unconfirmed: ['r0'], answers: [] } };
    const gate = evaluateGate(await summary(1, 1, { baseline }), { baselineGiven: true });
    expect(gate.warnings).toContain(
      '1 regressed row was not asked again (--confirm) and counts as its first answer says; the verdict was decided without it: it is the same whichever way it would go: r0',
    );
  });

  it('names one regressed row taken as noise by --confirm in the singular', async () => {
    const baseline = { ...comparison(1, 0), confirmation: { k: 2, rows: 1, questions: 2, reproduced: [], notReproduced: ['r0'], answers: [] } };
    const gate = evaluateGate(await summary(1, 1, { baseline }), { baselineGiven: true });
    expect(gate.warnings).toContain('1 regressed row did not reproduce in 2 confirming answers each (--confirm) and is taken as noise: r0');
  });

  it('says "no quality threshold set" for a clean run without --fail-under or baseline, and does not fail it', async () => {
    const gate = evaluateGate(await summary(1, 4), { baselineGiven: false });
    expect(gate).toMatchObject({ verdict: 'no_threshold', passed: true, reasons: [] });
    expect(gate.warnings).toEqual(['no quality threshold set: give --fail-under or --baseline to judge the answers']);
  });

  it('fails under the minimum pass rate, and when nothing was graded', async () => {
    expect(evaluateGate(await summary(8, 2), { failUnder: 0.8, baselineGiven: false })).toMatchObject({ verdict: 'passed', passed: true });
    const low = evaluateGate(await summary(7, 3), { failUnder: 0.8, baselineGiven: false });
    expect(low).toMatchObject({ verdict: 'failed', passed: false, reasons: ['pass rate 70.0% (7 / 10 graded) is below 80.0% (--fail-under)'] });
    expect(evaluateGate(await summary(0, 0), { failUnder: 0.5, baselineGiven: false }).reasons[0]).toMatch(/no row was graded/);
    expect(() => evaluateGate({ passRate: 1 } as RunSummary, { failUnder: 80, baselineGiven: false })).toThrow(/`failUnder` must be a fraction/);
  });

  it('fails a run whose rows mostly errored even though the few graded rows all passed (errors never raise the pass rate)', async () => {
    // The measured case: 43 of 66 rows errored, the 23 graded ones passed, --fail-under 0.85.
    const s = await summary(23, 0, { total: 66, error: 40, timedOut: 3, errorsByType: { RequestFailed: 40, TimedOut: 3 } });
    const gate = evaluateGate(s, { failUnder: 0.85, baselineGiven: false });
    expect(gate.verdict).toBe('failed');
    expect(gate.reasons).toEqual([
      '43 of 66 rows errored or timed out (65.2%: RequestFailed 40, TimedOut 3), above the allowed 0.0% (--max-error-rate); they are not in the pass rate',
    ]);
    expect(evaluateGate(s, { failUnder: 0.85, baselineGiven: false, maxErrorRate: 0.7 }).verdict).toBe('passed');
  });

  it('keeps uncertain rows out of the pass rate, warns within --max-uncertain-rate and fails above it', async () => {
    const rows = [
      ...Array.from({ length: 8 }, () => 'passed' as const), 'failed' as const, 'uncertain' as const, 'uncertain' as const,
    ].map((outcome, i) => row(i, { outcome }));
    const s = await summarize(meta(), iterate(rows));
    expect(s).toMatchObject({ total: 11, passed: 8, failed: 1, uncertain: 2, graded: 9 });
    expect(s.passRate).toBeCloseTo(8 / 9);
    // 2 of 11 graded rows uncertain: 18.2%, above the default 10%.
    const strict = evaluateGate(s, { failUnder: 0.85, baselineGiven: false });
    expect(strict.verdict).toBe('failed');
    expect(strict.reasons).toEqual([
      '2 of 11 graded rows are uncertain (18.2%): the graders could not decide and nothing settled them; they need review and are not in the pass rate; above the allowed 10.0% (--max-uncertain-rate)',
    ]);
    const lenient = evaluateGate(s, { failUnder: 0.85, baselineGiven: false, maxUncertainRate: 0.2 });
    expect(lenient).toMatchObject({ verdict: 'passed', reasons: [] });
    expect(lenient.warnings).toEqual([expect.stringMatching(/^2 of 11 graded rows are uncertain \(18\.2%\).*\(within 20\.0%, --max-uncertain-rate\)$/)]);
    expect(() => evaluateGate(s, { baselineGiven: false, maxUncertainRate: 1.5 })).toThrow(/`maxUncertainRate` must be a fraction/);
    // A summary written before the outcome existed has no `uncertain`: nothing to count.
    const { uncertain: _uncertain, ...old } = await summary(9, 1);
    expect(evaluateGate(old as RunSummary, { failUnder: 0.85, baselineGiven: false })).toMatchObject({ verdict: 'passed', warnings: [] });
  });

  it('fails on lost feedback and unclosed sessions unless they are allowed', async () => {
    const s = await summary(5, 0, { feedback: { good: 4, bad: 0, failed: 1 }, sessions: { opened: 5, closed: 3, closeFailed: 2 } });
    const gate = evaluateGate(s, { failUnder: 0.5, baselineGiven: false });
    expect(gate.verdict).toBe('failed');
    expect(gate.reasons).toEqual([
      'feedback was not recorded for 1 row (see the report; --allow-side-effect-failures accepts this)',
      '2 sessions could not be closed (see the report; --allow-side-effect-failures accepts this)',
    ]);
    const allowed = evaluateGate(s, { failUnder: 0.5, baselineGiven: false, allowSideEffectFailures: true });
    expect(allowed).toMatchObject({ verdict: 'passed', reasons: [] });
    expect(allowed.warnings).toHaveLength(2);
  });

  it('calls a cancelled run CANCELLED, never passed, and still lists every other reason', async () => {
    const s = await summary(10, 0, { cancelled: true, skipped: 9, total: 19 });
    const gate = evaluateGate(s, { failUnder: 0.5, baselineGiven: false });
    expect(gate).toMatchObject({ verdict: 'cancelled', passed: false });
    expect(gate.reasons).toEqual(['the run was cancelled: 9 rows were skipped (no answer: not sent, or abandoned by a cancel)']);
    const withErrors = evaluateGate({ ...s, error: 2, total: 21 }, { baselineGiven: false });
    expect(withErrors.verdict).toBe('cancelled');
    expect(withErrors.reasons[1]).toMatch(/^2 of 21 rows errored/);
  });

  it('fails on a significant regression and lists the rows', async () => {
    const gate = evaluateGate(await summary(90, 10, { baseline: comparison(10, 2) }), { baselineGiven: true });
    expect(gate).toMatchObject({ verdict: 'failed', passed: false });
    expect(gate.reasons[0]).toMatch(/significant regression against base \(McNemar p = 0\.0386\): 10 rows regressed, 2 fixed: r0, r1, .* r9$/);
  });

  it('only warns about regressions within noise; a baseline comparison is a threshold', async () => {
    const gate = evaluateGate(await summary(90, 10, { baseline: comparison(3, 1) }), { baselineGiven: true });
    expect(gate).toMatchObject({ verdict: 'passed', passed: true, reasons: [] });
    expect(gate.warnings[0]).toMatch(/^3 rows regressed against base, within noise \(McNemar p = 0\.625, 1 fixed\): r0, r1, r2$/);
  });

  it('does not fail a significant improvement', async () => {
    expect(evaluateGate(await summary(9, 1, { baseline: comparison(2, 10) }), { baselineGiven: true })).toMatchObject({ verdict: 'passed', reasons: [] });
  });

  it('caps the listed ids', async () => {
    const gate = evaluateGate(await summary(1, 1, { baseline: comparison(30, 0) }), { baselineGiven: true });
    expect(gate.reasons[0]).toMatch(/r19 … 10 more$/);
  });

  it('fails when an explicit baseline could not be used, not when `latest` found nothing compatible', async () => {
    const selection = { requested: 'runs/x', skipped: [], skippedMore: 0, message: 'the baseline could not be loaded: nope', warnings: [] };
    expect(evaluateGate(await summary(1, 0, { baselineSelection: selection }), { baselineGiven: true }).reasons).toEqual([
      'a baseline was requested but no comparison was made: the baseline could not be loaded: nope',
    ]);
    const none = evaluateGate(await summary(1, 0), { baselineGiven: true, baselineUnavailable: true });
    expect(none).toMatchObject({ verdict: 'no_threshold', passed: true, reasons: [] });
  });

  it('fails when rows are missing or skipped, and applies max-error-rate to all rows', async () => {
    expect(evaluateGate(await summary(1, 0, { missing: 2 }), { baselineGiven: false, failUnder: 0 }).reasons).toEqual(['2 dataset rows have no result']);
    expect(evaluateGate(await summary(1, 0, { skipped: 1, total: 2 }), { baselineGiven: false }).reasons).toEqual(['1 row was skipped (no answer: not sent, or abandoned by a cancel)']);
    const errored = await summary(8, 0, { total: 10, error: 1, timedOut: 1 });
    expect(evaluateGate(errored, { baselineGiven: false, maxErrorRate: 0.2 }).passed).toBe(true);
    expect(evaluateGate(errored, { baselineGiven: false, maxErrorRate: 0.1 }).reasons).toEqual([
      '2 of 10 rows errored or timed out (20.0%), above the allowed 10.0% (--max-error-rate); they are not in the pass rate',
    ]);
  });

  it('records the settings applied, defaults filled in', () => {
    expect(gateSettingsOf({ baselineGiven: false })).toEqual({ maxErrorRate: 0, maxUncertainRate: 0.1, allowSideEffectFailures: false });
    expect(gateSettingsOf({ baselineGiven: true, failUnder: 0.9, maxErrorRate: 0.05, maxUncertainRate: 0.02, baseline: 'latest' })).toEqual({
      failUnder: 0.9, maxErrorRate: 0.05, maxUncertainRate: 0.02, allowSideEffectFailures: false, baseline: 'latest',
    });
  });
});
