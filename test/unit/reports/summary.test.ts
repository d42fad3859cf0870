import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/analysis/summary';
import type { Outcome, RowResult } from '../../../src/domain/results';
import { iterate, meta, row } from './fixtures';

const outcomes: Outcome[] = ['passed', 'failed', 'answered', 'error', 'timed_out', 'skipped'];

function mixed(n: number): RowResult[] {
  return Array.from({ length: n }, (_, i) => {
    const outcome = outcomes[i % outcomes.length] ?? 'passed';
    return row(i, {
      outcome,
      latencyMs: i + 1,
      confidenceScore: i % 101,
      tags: i % 2 === 0 ? ['even', 'all'] : ['all', 'all'],
      sessionId: `s${i % 7}`,
      feedback: outcome === 'passed' ? 'good' : outcome === 'failed' ? 'bad' : undefined,
      ...(outcome === 'error' && { errorType: i % 4 === 3 ? 'RateLimitError' : 'InternalServerError', error: '500' }),
      finishedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    });
  });
}

describe('summarize', () => {
  it('counts every row in exactly one outcome', async () => {
    const s = await summarize(meta({ rowCount: 605 }), iterate(mixed(600)));
    expect(s.total).toBe(600);
    expect(s.passed + s.failed + s.answered + s.error + s.timedOut + s.skipped).toBe(s.total);
    expect(s).toMatchObject({ passed: 100, failed: 100, answered: 100, error: 100, timedOut: 100, skipped: 100, graded: 200, passRate: 0.5, missing: 5 });
    expect(s.feedback).toEqual({ good: 100, bad: 100, failed: 0 });
  });

  it('computes exact latency percentiles and histograms', async () => {
    const s = await summarize(meta(), iterate(mixed(600)));
    expect(s.latencyMs).toEqual({ p50: 300, p95: 570, max: 600 });
    expect(s.distributions.latencyMs.counts.reduce((a, b) => a + b, 0)).toBe(600);
    expect(s.distributions.latencyMs.start + s.distributions.latencyMs.width * 20).toBe(1000);
    expect(s.distributions.confidence.counts.reduce((a, b) => a + b, 0)).toBe(600);
  });

  it('groups by tag (once per row) and by error type', async () => {
    const s = await summarize(meta(), iterate(mixed(600)));
    expect(s.byTag.all).toEqual({ total: 600, passed: 100, failed: 100, graded: 200 });
    expect(s.byTag.even?.total).toBe(300);
    expect(s.errorsByType).toEqual({ InternalServerError: 50, RateLimitError: 50, TimedOut: 100 });
  });

  it('takes sessions from the caller, else counts distinct session ids', async () => {
    expect((await summarize(meta(), iterate(mixed(600)))).sessions).toEqual({ opened: 7, closed: null, closeFailed: null });
    const given = await summarize(meta(), iterate(mixed(6)), undefined, { sessions: { opened: 3, closed: 2 } });
    expect(given.sessions).toEqual({ opened: 3, closed: 2, closeFailed: null });
    const closedOnly = await summarize(meta(), iterate(mixed(600)), undefined, { sessionsClosed: 5, sessionsCloseFailed: 2, cancelled: true });
    expect(closedOnly.sessions).toEqual({ opened: 7, closed: 5, closeFailed: 2 });
    expect(closedOnly.cancelled).toBe(true);
    expect(given.cancelled).toBe(false);
  });

  it('derives finishedAt and duration', async () => {
    const fromRows = await summarize(meta(), iterate(mixed(60)));
    expect(fromRows).toMatchObject({ finishedAt: '2025-01-01T00:00:59.000Z', durationMs: 59_000 });
    const given = await summarize(meta(), iterate([]), undefined, { finishedAt: '2025-01-01T00:01:00.000Z' });
    expect(given).toMatchObject({ durationMs: 60_000, total: 0, passRate: null, latencyMs: { p50: null, p95: null, max: null } });
    expect(await summarize(meta(), iterate([row(0, { finishedAt: undefined })]))).toMatchObject({ finishedAt: null, durationMs: null });
  });

  it('keeps a tag named __proto__ as a tag', async () => {
    const s = await summarize(meta(), iterate([row(0, { tags: ['__proto__'] })]));
    expect(Object.keys(s.byTag)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(s.byTag)) as unknown).toEqual(JSON.parse('{"__proto__":{"total":1,"passed":1,"failed":0,"graded":1}}'));
  });

  it('compares with a baseline row by row', async () => {
    const baseline = {
      runId: 'base',
      passRate: 0.75,
      outcomes: new Map<string, Outcome>([['r0', 'passed'], ['r1', 'passed'], ['r2', 'failed'], ['r3', 'error'], ['r4', 'passed']]),
    };
    const rows = [row(0), row(1, { outcome: 'failed' }), row(2), row(3, { outcome: 'failed' }), row(4, { outcome: 'error' }), row(5)];
    const s = await summarize(meta(), iterate(rows), baseline);
    expect(s.baseline).toMatchObject({ runId: 'base', passRate: 0.75, compared: 3, regressed: ['r1'], fixed: ['r2'], mcnemar: { b: 1, c: 1, pValue: 1 } });
    expect(s.baseline?.delta).toBeCloseTo(0.6 - 0.75);
  });
});

describe('summarize: judge use', () => {
  const judged = (cached: boolean, tokens: number) => ({
    type: 'llm-rubric' as const, pass: true, score: 1, reason: 'judge', judge: { model: 'm', verdict: 'pass' as const, reason: 'ok', tokens, cached },
  });

  it('counts judge calls, cached verdicts and the tokens of the calls made', async () => {
    const rows = [
      row(0, { assertions: [judged(false, 100), judged(true, 80)] }),
      row(1, { assertions: [judged(false, 50), { type: 'f1', pass: true, score: 1, reason: 'f1' }] }),
      row(2, {}),
    ];
    const s = await summarize(meta(), iterate(rows));
    expect(s.judge).toEqual({ calls: 2, cached: 1, tokens: 150 });
  });

  it('has no judge entry when nothing was judged', async () => {
    expect((await summarize(meta(), iterate([row(0, {})]))).judge).toBeUndefined();
  });
});
