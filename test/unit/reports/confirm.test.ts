import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confirmationUnits } from '../../../src/datasets/confirm';
import type { DatasetRow } from '../../../src/domain/dataset';
import { loadBaseline, type BaselineInput } from '../../../src/analysis/baseline';
import { evaluateGate } from '../../../src/analysis/gate';
import { summarize } from '../../../src/analysis/summary';
import type { Outcome, RowResult } from '../../../src/domain/results';
import { iterate, meta, row } from './fixtures';

function baselineAllPassing(n: number): BaselineInput {
  return { runId: 'base', passRate: 1, outcomes: new Map(Array.from({ length: n }, (_, i) => [`r${i}`, 'passed' as Outcome])) };
}

/** Confirming answers of row `id`: `fails` of `k` failing. */
function confirming(id: string, index: number, k: number, fails: number): RowResult[] {
  return Array.from({ length: k }, (_, c) => row(index, {
    id: `${id}#c${c + 1}`, baseId: id, confirm: c + 1, outcome: (c < fails ? 'failed' : 'passed') as Outcome, answer: `again ${c + 1}`, sessionId: `s-${id}-${c}`,
  }));
}

describe('--confirm', () => {
  it('asks again only the conversations of regressed rows, K times each, as fresh rows', () => {
    const base = (id: string, extra: Partial<DatasetRow> = {}): DatasetRow => ({ id, index: 0, line: 2, question: `${id}?`, metadata: {}, ...extra });
    const plan = [
      { key: 'row:a', rows: [base('a', { session_id: 'mine' })] },
      { key: 'row:b', rows: [base('b')] },
      { key: 'c1', rows: [base('t1', { conversation: 'c1', turn: 1 }), base('t2', { conversation: 'c1', turn: 2 })] },
    ];
    const units = confirmationUnits(plan, new Set(['a', 't2']), 2);
    expect(units.map((u) => [u.key, u.rows.map((r) => [r.id, r.baseId, r.confirm, r.session_id, r.conversation])])).toEqual([
      ['row:a#c1', [['a#c1', 'a', 1, undefined, undefined]]],
      ['row:a#c2', [['a#c2', 'a', 2, undefined, undefined]]],
      ['c1#c1', [['t1#c1', 't1', 1, undefined, 'c1#c1'], ['t2#c1', 't2', 1, undefined, 'c1#c1']]],
      ['c1#c2', [['t1#c2', 't1', 2, undefined, 'c1#c2'], ['t2#c2', 't2', 2, undefined, 'c1#c2']]],
    ]);
  });

  it('a regression counts only where most confirming answers fail; the others are noise, out of the test, and named', async () => {
    // 40 rows passed in the baseline; 8 fail now. Rows 0-2 fail both confirming answers, rows 3-7 pass one or both.
    const first = Array.from({ length: 40 }, (_, i) => row(i, { outcome: i < 8 ? 'failed' : 'passed', sessionId: `s${i}` }));
    const confirm = [
      ...[0, 1, 2].flatMap((i) => confirming(`r${i}`, i, 2, 2)),
      ...[3, 4].flatMap((i) => confirming(`r${i}`, i, 2, 1)),
      ...[5, 6, 7].flatMap((i) => confirming(`r${i}`, i, 2, 0)),
    ];
    const without = await summarize(meta({ rowCount: 40 }), iterate(first), baselineAllPassing(40));
    expect(without.baseline?.mcnemar).toMatchObject({ b: 8, significant: true });
    expect(evaluateGate(without, { baselineGiven: true }).verdict).toBe('failed');

    const s = await summarize(meta({ rowCount: 40 }), iterate([...first, ...confirm]), baselineAllPassing(40));
    // The run's own figures do not count the confirming answers; its sessions do.
    expect(s).toMatchObject({ total: 40, missing: 0, passed: 32, failed: 8, graded: 40 });
    expect(s.sessions.opened).toBe(40 + 16);
    expect(s.baseline?.regressed).toEqual(['r0', 'r1', 'r2']);
    expect(s.baseline?.mcnemar).toMatchObject({ b: 3, c: 0, significant: false });
    expect(s.baseline?.confirmation).toMatchObject({ k: 2, rows: 8, questions: 16, reproduced: ['r0', 'r1', 'r2'], notReproduced: ['r3', 'r4', 'r5', 'r6', 'r7'] });
    expect(s.baseline?.confirmation?.answers[0]).toEqual({ id: 'r0', answers: [{ confirm: 1, outcome: 'failed', answer: 'again 1' }, { confirm: 2, outcome: 'failed', answer: 'again 2' }] });
    const gate = evaluateGate(s, { baselineGiven: true });
    expect(gate.verdict).toBe('passed');
    expect(gate.warnings.join('\n')).toContain('5 regressed rows did not reproduce in 2 confirming answers each (--confirm) and are taken as noise: r3, r4, r5, r6, r7');
  });

  it('a regression that reproduces still fails the gate', async () => {
    const first = Array.from({ length: 40 }, (_, i) => row(i, { outcome: i < 8 ? 'failed' : 'passed' }));
    const confirm = Array.from({ length: 8 }, (_, i) => confirming(`r${i}`, i, 2, 2)).flat();
    const s = await summarize(meta(), iterate([...first, ...confirm]), baselineAllPassing(40));
    expect(s.baseline?.confirmation).toMatchObject({ reproduced: ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'], notReproduced: [] });
    expect(evaluateGate(s, { baselineGiven: true }).verdict).toBe('failed');
  });
});

describe('a baseline that confirmed regressions', () => {
  it('is read without its confirming answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baseline-confirm-'));
    const rows = [row(0), row(1, { outcome: 'failed' }), ...confirming('r1', 1, 2, 2)];
    await writeFile(join(dir, 'results.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    const baseline = await loadBaseline(dir);
    expect([...baseline.outcomes.keys()]).toEqual(['r0', 'r1']);
    expect(baseline.passRate).toBe(0.5);
  });
});
