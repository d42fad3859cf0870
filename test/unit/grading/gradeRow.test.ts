import { describe, expect, it } from 'vitest';
import { assertionSpecSchema } from '../../../src/config/assertions';
import type { DatasetRow } from '../../../src/domain/dataset';
import { assertionsForRow } from '../../../src/grading/assertions';
import { feedbackFor, gradedResult, gradeRow, GradingError, type ExternalGrader } from '../../../src/grading/gradeRow';
import type { AssertionResult, ExternalAssertionSpec } from '../../../src/domain/grade';
import { answeredResult } from '../../../src/domain/rowResult';

function row(extra: Partial<DatasetRow> = {}): DatasetRow {
  return { id: 'r1', index: 0, line: 2, question: 'How much is Personal?', metadata: {}, ...extra };
}
const answer = { answer: 'It costs $9.99 a month.' };

/** An external grader that passes every spec and records what it was asked. */
function recording(pass = true): ExternalGrader & { asked: ExternalAssertionSpec[][] } {
  const asked: ExternalAssertionSpec[][] = [];
  const grader = (specs: ExternalAssertionSpec[]): Promise<AssertionResult[]> => {
    asked.push(specs);
    return Promise.resolve(specs.map((s) => ({ type: s.type, pass, score: pass ? 1 : 0, reason: 'external' })));
  };
  return Object.assign(grader, { asked });
}

describe('assertions for judge types', () => {
  it('a row with a `rubric` gets an llm-rubric; a default llm-rubric without value uses it instead of adding one', () => {
    expect(assertionsForRow({ rubric: 'mentions $9.99' })).toEqual([{ type: 'llm-rubric' }]);
    expect(assertionsForRow({ rubric: 'x' }, [{ type: 'llm-rubric' }])).toEqual([{ type: 'llm-rubric' }]);
    expect(assertionsForRow({}, [{ type: 'llm-rubric' }])).toEqual([]);
    expect(assertionsForRow({}, [{ type: 'llm-rubric', value: 'is polite' }])).toEqual([{ type: 'llm-rubric', value: 'is polite' }]);
  });

  it('a default llm-correctness grades `expected` instead of f1, and is left out on rows without `expected`', () => {
    expect(assertionsForRow({ expected: '$9.99' }, [{ type: 'llm-correctness' }])).toEqual([{ type: 'llm-correctness' }]);
    expect(assertionsForRow({}, [{ type: 'llm-correctness' }])).toEqual([]);
  });

  it('the config schema takes both types and rejects stray keys', () => {
    expect(assertionSpecSchema.parse({ type: 'llm-rubric', value: 'is polite' })).toEqual({ type: 'llm-rubric', value: 'is polite' });
    expect(assertionSpecSchema.parse({ type: 'llm-correctness' })).toEqual({ type: 'llm-correctness' });
    expect(assertionSpecSchema.safeParse({ type: 'llm-correctness', value: 'x' }).success).toBe(false);
    expect(assertionSpecSchema.safeParse({ type: 'llm-rubric', value: '' }).success).toBe(false);
  });
});

describe('gradeRow', () => {
  it('runs pure graders itself and hands only external specs to `external`, merging results in order', async () => {
    const external = recording();
    const grade = await gradeRow(row({ expected: 'It costs $9.99 a month.', rubric: 'mentions the price' }), answer,
      { assertions: [{ type: 'llm-correctness' }, { type: 'custom', module: '/x.mjs' }] }, external);
    expect(external.asked).toEqual([[{ type: 'llm-rubric' }, { type: 'llm-correctness' }, { type: 'custom', module: '/x.mjs' }]]);
    expect(grade).toMatchObject({ graded: true, pass: true });
    expect(grade.assertions.map((a) => a.type)).toEqual(['llm-rubric', 'llm-correctness', 'custom']);
    expect(grade.pending).toBeUndefined();
  });

  it('never calls `external` when every assertion is pure', async () => {
    const external = recording();
    const grade = await gradeRow(row({ must_include: ['$9.99'] }), answer, {}, external);
    expect(external.asked).toEqual([]);
    expect(grade.pass).toBe(true);
  });

  it('a failing judge verdict fails the row', async () => {
    const grade = await gradeRow(row({ rubric: 'x' }), answer, {}, recording(false));
    expect(grade).toMatchObject({ graded: true, pass: false });
    expect(gradedResult(answeredResult(row(), { status: 'completed', answer: answer.answer, latencyMs: 5 }, undefined, 't'), grade).outcome).toBe('failed');
  });

  it('an external grader that throws makes the row `error` with the reason: never a silent pass or fail', async () => {
    const grade = await gradeRow(row({ rubric: 'x', must_include: ['$9.99'] }), answer, {}, () =>
      Promise.reject(new GradingError('500 from the judge at http://j: overloaded (gave up after 6 attempts)', 'JudgeServerError')));
    expect(grade.error).toEqual({ message: '500 from the judge at http://j: overloaded (gave up after 6 attempts)', type: 'JudgeServerError' });
    expect(grade.pass).toBe(false);
    expect(feedbackFor(grade)).toBeUndefined();
    const result = gradedResult(answeredResult(row(), { status: 'completed', answer: answer.answer, latencyMs: 5 }, undefined, 't'), grade);
    expect(result).toMatchObject({ outcome: 'error', errorType: 'JudgeServerError', error: 'grading failed: 500 from the judge at http://j: overloaded (gave up after 6 attempts)' });
    expect(result.assertions?.map((a) => a.type)).toEqual(['contains-all']);
  });

  it('a wrong number of external results is an error too', async () => {
    const grade = await gradeRow(row({ rubric: 'x' }), answer, {}, () => Promise.resolve([]));
    expect(grade.error?.message).toMatch(/returned 0 results for 1 assertions/);
  });

  it('feedback follows the grade', async () => {
    expect(feedbackFor(await gradeRow(row({ rubric: 'x' }), answer, {}, recording(true)))).toBe('good');
    expect(feedbackFor(await gradeRow(row({ rubric: 'x' }), answer, {}, recording(false)))).toBe('bad');
    expect(feedbackFor(await gradeRow(row(), answer, {}, recording()))).toBeUndefined();
  });
});
