import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { WEAK_MODEL } from '../../src/sim/kb/models';
import { DEMO } from '../../src/sim/constants';
import type { WorkUnit } from '../../src/domain/dataset';
import { mcnemarExact } from '../../src/analysis/stats';
import type { RunSummary } from '../../src/domain/results';
import type { RunResult } from '../../src/domain/run';
import { DEMO_HEADER, readResults, startRun, writeDataset } from '../helpers/runs';
import { useStack, type Stack } from '../helpers/stack';

const DEMO_DATASET = resolve(__dirname, '../../datasets/demo.csv');

describe('--repeat and --confirm (real Temporal + simulator)', () => {
  let stack: Stack;
  useStack(__filename, (s) => (stack = s));

  it('asks every conversation 3 times in fresh sessions and grades each answer; the summary gives each row k of 3', async () => {
    const dataset = writeDataset(stack, DEMO_HEADER, [
      'r1,,,How much does the Personal plan cost?,$9.99',
      'r2,,,How much storage do I get for free?,5 GB',
      'r3,,,What is the airspeed of an unladen swallow?,swallow',
      't1,c1,1,How much does the Personal plan cost?,$9.99',
      't2,c1,2,And how much storage comes with it?,GB',
    ]);
    const { summary, reportDir } = (await (await startRun(stack, dataset, { repeat: 3 })).result()) as RunResult;
    const results = readResults(reportDir);
    expect(results).toHaveLength(15);
    expect(stack.sim.stats().submitted).toBe(15);
    const byRow = new Map<string | undefined, typeof results>();
    for (const r of results) byRow.set(r.baseId, [...(byRow.get(r.baseId) ?? []), r]);
    expect([...byRow.keys()].sort()).toEqual(['r1', 'r2', 'r3', 't1', 't2']);
    for (const [id, answers] of byRow) {
      expect(answers.map((a) => [a.id, a.repeat]).sort((x, y) => Number(x[1]) - Number(y[1]))).toEqual([[id, 1], [`${id}#r2`, 2], [`${id}#r3`, 3]]);
      for (const a of answers) expect(['passed', 'failed']).toContain(a.outcome);
    }
    // Each repeat its own session; the turns of one repeat of the conversation share theirs.
    const sessionOf = (id: string): string | undefined => results.find((r) => r.id === id)?.sessionId;
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(12);
    for (const suffix of ['', '#r2', '#r3']) expect(sessionOf(`t1${suffix}`)).toBe(sessionOf(`t2${suffix}`));
    expect(summary).toMatchObject({ total: 15, missing: 0, graded: 15, sessions: { opened: 12, closed: 12 } });
    const repeats = summary.repeats;
    expect(repeats).toMatchObject({ n: 3, rows: 5, ungraded: 0 });
    expect(Object.values(repeats?.kOfN ?? {}).reduce((a, b) => a + b, 0)).toBe(5);
    expect((repeats?.allPassed ?? 0) + (repeats?.allFailed ?? 0) + (repeats?.flaky ?? 0)).toBe(5);
    expect(repeats?.passRate?.value).toBeCloseTo(summary.passed / 15, 10);
    const onDisk = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
    expect(onDisk.repeats).toEqual(repeats);
    expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain('## Repeats (3 answers per row)');
  });

  it('a run without --repeat keeps its rows and summary as they were', async () => {
    const dataset = writeDataset(stack, DEMO_HEADER, ['r1,,,How much does the Personal plan cost?,$9.99']);
    const { summary, reportDir } = (await (await startRun(stack, dataset)).result()) as RunResult;
    const [only] = readResults(reportDir);
    expect(only).not.toHaveProperty('baseId');
    expect(only).not.toHaveProperty('repeat');
    expect(summary.repeats).toBeUndefined();
    expect(stack.sim.stats().submitted).toBe(1);
  });

  it('--confirm 2 asks only regressed rows again, twice each, only as many as the verdict needs, and a regression that reproduces fails the gate', async () => {
    const first = (await (await startRun(stack, DEMO_DATASET)).result()) as RunResult;
    expect(first.summary.total).toBe(66);
    // Nothing regressed: the confirm step asks nothing.
    const before = stack.sim.stats().submitted;
    const same = (await (await startRun(stack, DEMO_DATASET, { baseline: first.reportDir, confirm: 2 })).result()) as RunResult;
    expect(stack.sim.stats().submitted - before).toBe(66);
    expect(same.summary.baseline?.confirmation).toBeUndefined();
    expect(same.summary.gate?.verdict).toBe('passed');

    // The site gets worse: the weak model answers everything there (answer-model route's state).
    stack.sim.simulator.degraded.set(DEMO.siteId, WEAK_MODEL);
    const sent = stack.sim.stats().submitted;
    const worse = (await (await startRun(stack, DEMO_DATASET, { baseline: first.reportDir, confirm: 2 })).result()) as RunResult;
    const extra = stack.sim.stats().submitted - sent - 66;
    const confirmation = worse.summary.baseline?.confirmation;
    expect(confirmation).toBeDefined();
    expect(extra).toBe(confirmation?.questions);
    const results = readResults(worse.reportDir);
    const confirming = results.filter((r) => r.confirm !== undefined);
    expect(confirming).toHaveLength(extra);
    const firstAnswers = results.filter((r) => r.confirm === undefined);
    const wasPassing = new Set(readResults(first.reportDir).filter((r) => r.outcome === 'passed').map((r) => r.id));
    const wasFailing = new Set(readResults(first.reportDir).filter((r) => r.outcome === 'failed').map((r) => r.id));
    const regressed = new Set(firstAnswers.filter((r) => r.outcome === 'failed' && wasPassing.has(r.id)).map((r) => r.id));
    const fixed = firstAnswers.filter((r) => r.outcome === 'passed' && wasFailing.has(r.id)).length;
    // Only regressed rows (and the earlier turns of their conversations) were asked again, each twice.
    const conversationsOf = new Set(firstAnswers.filter((r) => regressed.has(r.id)).map((r) => r.conversation ?? `row:${r.id}`));
    for (const r of confirming) {
      expect(conversationsOf.has(firstAnswers.find((x) => x.id === r.baseId)?.conversation ?? `row:${r.baseId}`)).toBe(true);
      expect([1, 2]).toContain(r.confirm);
    }
    const asked = [...regressed].filter((id) => confirming.some((r) => r.baseId === id));
    for (const id of asked) expect(confirming.filter((r) => r.baseId === id)).toHaveLength(2);
    expect(confirmation?.rows).toBe(asked.length);
    // Sequential: rounds (pages after the plan's own) of 5 regressed rows at most, until the reproduced rows alone keep
    // McNemar significant; before the last round they did not.
    const planDir = join(stack.runsDir, worse.summary.runId, 'plan');
    const pages = readdirSync(planDir).filter((f) => f.startsWith('extra-page-')).sort((a, b) => parseInt(a.slice(11), 10) - parseInt(b.slice(11), 10));
    const rounds = pages.map((f) => (JSON.parse(readFileSync(join(planDir, f), 'utf8')) as WorkUnit[])
      .flatMap((u) => u.rows).filter((r) => r.confirm === 1 && regressed.has(r.baseId ?? '')).map((r) => r.baseId));
    expect(rounds.length).toBeGreaterThan(0);
    expect(rounds.flat().sort()).toEqual([...asked].sort());
    expect(asked.length).toBeLessThan(regressed.size);
    const alarm = (reproduced: number): boolean => mcnemarExact(reproduced, fixed).significant && reproduced > fixed;
    expect(alarm(asked.length)).toBe(true);
    expect(alarm(asked.length - (rounds.at(-1)?.length ?? 0))).toBe(false);
    // The weak model fails them again: every row asked reproduced; the rest count as their first answers say.
    expect(confirmation?.reproduced.sort()).toEqual([...asked].sort());
    expect(confirmation?.unconfirmed?.sort()).toEqual([...regressed].filter((id) => !asked.includes(id)).sort());
    expect(confirmation?.undecided).toBeUndefined();
    expect(worse.summary.baseline?.regressed).toHaveLength(regressed.size);
    expect(worse.summary).toMatchObject({ total: 66, missing: 0, gate: { verdict: 'failed' } });
    expect(worse.summary.gate?.warnings.join('\n')).toContain('the verdict was decided without them');
    expect(readFileSync(join(worse.reportDir, 'report.md'), 'utf8')).toContain('**Confirmed before alarm** (--confirm 2)');
  });
});
