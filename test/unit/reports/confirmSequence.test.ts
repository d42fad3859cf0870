import { describe, expect, it } from 'vitest';
import { BaselineDiff, type BaselineInput } from '../../../src/analysis/baseline';
import { ConfirmTally } from '../../../src/analysis/confirmTally';
import { confirmOrder, nextConfirmStep } from '../../../src/analysis/confirmSequence';
import { evaluateGate, regressionFailsGate } from '../../../src/analysis/gate';
import { summarize } from '../../../src/analysis/summary';
import type { Outcome, RowResult } from '../../../src/domain/results';
import { iterate, meta, row } from './fixtures';

/** 40 rows; the baseline passed r0–r29 and failed r30–r39. */
function baseline(): BaselineInput {
  return { runId: 'base', passRate: 0.75, outcomes: new Map(Array.from({ length: 40 }, (_, i) => [`r${i}`, (i < 30 ? 'passed' : 'failed') as Outcome])) };
}

/** First answers: r0 … r(regressed-1) fail now (regressed), `fixed` of r30–r39 pass now, the rest as before. */
function firstAnswers(regressed: number, fixed: number): RowResult[] {
  return Array.from({ length: 40 }, (_, i) => row(i, { outcome: (i < regressed ? 'failed' : i < 30 ? 'passed' : i < 30 + fixed ? 'passed' : 'failed') as Outcome }));
}

function confirming(id: string, k: number, reproduces: boolean): RowResult[] {
  const index = Number(id.slice(1));
  return Array.from({ length: k }, (_, c) => row(index, { id: `${id}#c${c + 1}`, baseId: id, confirm: c + 1, outcome: (reproduces ? 'failed' : 'passed') as Outcome }));
}

/**
 * What the run workflow and `planConfirmationRound` do, with the rows' confirming answers decided by `reproduces`:
 * rounds until the step is decided. Returns the rounds asked, the decision and every row the run recorded.
 */
function sequence(first: RowResult[], reproduces: (id: string) => boolean, k = 2): { rounds: string[][]; decided: string; rows: RowResult[] } {
  const rows = [...first];
  const rounds: string[][] = [];
  for (;;) {
    const diff = new BaselineDiff(baseline());
    const tally = new ConfirmTally();
    for (const r of rows) {
      if (r.confirm === undefined) diff.add(r);
      else tally.add(r);
    }
    const regressed = diff.without(null, new Set()).regressed;
    const step = nextConfirmStep({
      order: confirmOrder('run-1', regressed),
      asked: new Set(rounds.flat()),
      notReproduced: tally.judge(regressed).notReproduced,
      fails: (noise) => regressionFailsGate(diff.without(null, noise)),
    });
    if (step.decided) return { rounds, decided: step.decided, rows };
    rounds.push(step.rows);
    for (const id of step.rows) rows.push(...confirming(id, k, reproduces(id)));
  }
}

describe('sequential --confirm', () => {
  it('a real regression: asks rounds of 5 until enough reproduced to keep McNemar significant, then stops', async () => {
    // 12 regressed, 0 fixed: McNemar needs 6 of them (2/2^6 < 0.05), so two rounds of 5 decide it; 2 rows are never asked.
    const first = firstAnswers(12, 0);
    const { rounds, decided, rows } = sequence(first, () => true);
    expect(decided).toBe('alarm');
    expect(rounds.map((r) => r.length)).toEqual([5, 5]);
    const asked = new Set(rounds.flat());
    expect(asked.size).toBe(10);

    const s = await summarize(meta({ rowCount: 40 }), iterate(rows), baseline());
    const c = s.baseline?.confirmation;
    expect(c).toMatchObject({ k: 2, rows: 10, questions: 20, notReproduced: [] });
    expect(c?.reproduced.sort()).toEqual([...asked].sort());
    expect(c?.unconfirmed?.length).toBe(2);
    expect(c?.undecided).toBeUndefined();
    // The rows never asked count as their first answers say: all 12 stay regressed, and the gate fails.
    expect(s.baseline?.regressed).toHaveLength(12);
    const gate = evaluateGate(s, { baselineGiven: true });
    expect(gate.verdict).toBe('failed');
    expect(gate.warnings.join('\n')).toContain('2 regressed rows were not asked again (--confirm) and count as their first answers say; the verdict was decided without them');
  });

  it('a false alarm: stops once the rows not asked could no longer make the gate fail', async () => {
    // 12 regressed, 3 fixed (McNemar p = 0.035): one row that does not reproduce makes it 11 vs 3 (p = 0.057).
    const first = firstAnswers(12, 3);
    const { rounds, decided, rows } = sequence(first, () => false);
    expect(decided).toBe('quiet');
    expect(rounds).toHaveLength(1);
    const s = await summarize(meta({ rowCount: 40 }), iterate(rows), baseline());
    expect(s.baseline?.confirmation?.notReproduced).toHaveLength(5);
    expect(s.baseline?.confirmation?.unconfirmed).toHaveLength(7);
    expect(s.baseline?.regressed).toHaveLength(7);
    expect(evaluateGate(s, { baselineGiven: true }).verdict).toBe('passed');
  });

  it('a mix: asks until one side is certain, whatever order the rows come in', () => {
    const first = firstAnswers(12, 0);
    // Every other row reproduces: the alarm needs 6 reproduced, the quiet needs 7 taken as noise (b = 5).
    const reproduces = (id: string): boolean => Number(id.slice(1)) % 2 === 0;
    const { rounds, decided } = sequence(first, reproduces);
    const asked = rounds.flat();
    const reproduced = asked.filter(reproduces).length;
    const noise = asked.length - reproduced;
    expect(decided).toBe(reproduced >= 6 ? 'alarm' : 'quiet');
    expect(reproduced >= 6 || noise >= 7).toBe(true);
    // The round before the last could not decide yet.
    const before = rounds.slice(0, -1).flat();
    expect(before.filter(reproduces).length < 6 && before.length - before.filter(reproduces).length < 7).toBe(true);
  });

  it('a gate that does not fail asks nothing', () => {
    const { rounds, decided } = sequence(firstAnswers(3, 3), () => true);
    expect(decided).toBe('quiet');
    expect(rounds).toEqual([]);
  });

  it('the order is a seeded shuffle: the same for a run, another for another run', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `r${i}`);
    expect(confirmOrder('run-1', ids)).toEqual(confirmOrder('run-1', [...ids].reverse()));
    expect(confirmOrder('run-1', ids).sort()).toEqual([...ids].sort());
    expect(confirmOrder('run-1', ids)).not.toEqual(confirmOrder('run-2', ids));
  });

  it('a confirmation cut short says the rows not asked could still change the verdict', async () => {
    // Only one round of the real-regression case was asked (say a cancel came): 5 reproduced, 7 not asked.
    const first = firstAnswers(12, 0);
    const asked = confirmOrder('run-1', first.filter((r) => r.outcome === 'failed').map((r) => r.id)).slice(0, 5);
    const s = await summarize(meta({ rowCount: 40 }), iterate([...first, ...asked.flatMap((id) => confirming(id, 2, true))]), baseline());
    expect(s.baseline?.confirmation).toMatchObject({ rows: 5, unconfirmed: expect.any(Array) as unknown, undecided: true });
    expect(evaluateGate(s, { baselineGiven: true }).warnings.join('\n')).toContain('they could still change the verdict (confirmation was cut short');
  });
});
