import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../../src/api/secret';
import { JUDGE_CACHE_DIR } from '../../src/grading/judge/cache';
import { labelKey, normalizeAnswerForLabel } from '../../src/labels/key';
import { labelSubjectOf } from '../../src/labels/subject';
import { gradeRun } from '../../src/regrade/gradeRun';
import { openRunInput } from '../../src/regrade/runInput';
import { FileResultsStore } from '../../src/store/file/resultsStore';
import { DEMO } from '../../src/sim/constants';
import type { RunResult } from '../../src/domain/run';
import { readResults, startRun, writeDataset } from '../helpers/runs';
import { startStack, type Stack } from '../helpers/stack';
import { GRADED_HEADER, GRADED_ROWS } from '../helpers/uncertainRows';

/** Two rows the `reference` grader is uncertain about (test/helpers/uncertainRows.ts), and one it passes. */
const HEADER = GRADED_HEADER;
const ROWS = [GRADED_ROWS.pass, GRADED_ROWS.unsure1, GRADED_ROWS.unsure2];

describe('labels first: a later run and `sitechat grade` settle a labelled row by its label (real Temporal + simulator and its judge route)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(__filename);
    await stack.startWorkers({
      judge: { baseUrl: stack.sim.judgeBaseUrl, apiKey: new Secret('sk-judge-labels-test'), model: 'sim-judge', rpm: 0, timeoutMs: 5000, maxAttempts: 3, maxRetryAfterMs: 5000, temperature: 0, jsonMode: true },
    });
  });
  afterAll(async () => stack?.close());

  it('a second run of the same dataset reuses the label: that row is decided by it, with no judge call and its feedback', async () => {
    const dataset = writeDataset(stack, HEADER, ROWS);
    const first = (await (await startRun(stack, dataset)).result()) as RunResult;
    expect(stack.sim.stats().judge.calls).toBe(2);
    const firstRows = readResults(first.reportDir);
    const unsure1 = firstRows.find((r) => r.id === 'unsure1');
    expect(unsure1?.decision?.by).toBe('judge');
    // The run recorded the key a label of this row must have: the one computed from the dataset row and the answer.
    const key = labelKey(labelSubjectOf(DEMO.siteId, { question: unsure1?.question ?? '', expected: unsure1?.expected }, unsure1?.answer ?? ''));
    expect(unsure1?.labelKey).toBe(key);

    // A person fails it (the judge passed or failed it: the label wins either way).
    const store = new FileResultsStore(stack.runsDir);
    const at = new Date().toISOString();
    await store.putLabels([{
      key, siteId: DEMO.siteId, question: unsure1?.question ?? '', references: ['Five gigabytes, shared with your whole household'],
      answer: normalizeAnswerForLabel(unsure1?.answer ?? ''), verdict: 'fail', note: 'the household is not mentioned', by: 'ana', at,
    }]);
    // Without the cached verdicts, a judge call per row escalated: only unsure2 may cost one now.
    rmSync(join(stack.runsDir, JUDGE_CACHE_DIR), { recursive: true, force: true });
    stack.sim.reset();

    const second = (await (await startRun(stack, dataset)).result()) as RunResult;
    const stats = stack.sim.stats();
    expect(stats.judge.calls).toBe(1);
    const rows = readResults(second.reportDir);
    const labelled = rows.find((r) => r.id === 'unsure1');
    expect(labelled).toMatchObject({
      outcome: 'failed', feedback: 'bad', labelKey: key,
      decision: { verdict: 'fail', by: 'label', reason: 'label by ana: the household is not mentioned', label: { by: 'ana', at, note: 'the household is not mentioned' } },
    });
    // No grader ran for it: a label is a settled grade.
    expect(labelled?.assertions).toBeUndefined();
    // The run's reports say who decided it, when and why; junit fails it by the label, not by assertions.
    const junit = readFileSync(join(second.reportDir, 'junit.xml'), 'utf8');
    // The wording is pinned in test/unit/reports/labelView.test.ts; here, that the failure is the label's, with its note and author.
    const failures = [...junit.matchAll(/<failure message="([^"]*)" type="label">/gu)].map((m) => m[1] ?? '');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^failed by a label: the household is not mentioned /u);
    expect(failures[0]).toContain('(by ana · ');
    expect(readFileSync(join(second.reportDir, 'report.md'), 'utf8')).toContain('**Graders not run: the label settled the row before them**');
    expect(rows.find((r) => r.id === 'unsure2')?.decision?.by).toBe('judge');
    expect(rows.find((r) => r.id === 'pass')).toMatchObject({ outcome: 'passed', decision: { by: 'graders' } });
    expect(second.summary).toMatchObject({ total: 3, failed: expect.any(Number), uncertain: 0 });
    expect(second.summary.escalated).toMatchObject({ rows: 1, calls: 1 });
    // Every settled row's feedback went out, the labelled one's too.
    expect(stats.feedback).toBe(3);

    // `sitechat grade` of the first run applies the same label before its graders (and has no judge here).
    const before = stack.sim.stats().judge.calls;
    const graded = await gradeRun(await openRunInput(first.reportDir), { runsDir: stack.runsDir, runId: `regrade-${Date.now()}` });
    const regraded = readResults(graded.outDir);
    expect(regraded.find((r) => r.id === 'unsure1')).toMatchObject({ outcome: 'failed', labelKey: key, decision: { by: 'label', verdict: 'fail' } });
    expect(regraded.find((r) => r.id === 'unsure2')).toMatchObject({ outcome: 'uncertain', decision: { by: 'graders' } });
    expect(stack.sim.stats().judge.calls).toBe(before);
  });
});
