import { describe, expect, it } from 'vitest';
import type { DatasetRow } from '../../../src/domain/dataset';
import { assertionsForRow, combineGrades, gradeAnswer, type AssertionSpec } from '../../../src/grading';

const row = (extra: Partial<DatasetRow> = {}): DatasetRow => ({ id: '1', index: 0, line: 2, question: 'q', metadata: {}, ...extra });

describe('assertionsForRow', () => {
  it('derives assertions from the row columns', () => {
    const specs = assertionsForRow(row({
      expected: 'Paris', must_include: ['Paris'], include_any: ['France', 'FR'], must_not_include: ['sorry'],
      regex: '/par/i', min_confidence: 60,
    }), []);
    expect(specs).toEqual([
      { type: 'reference' },
      { type: 'contains-all', values: ['Paris'] },
      { type: 'contains-any', values: ['France', 'FR'] },
      { type: 'not-contains', values: ['sorry'] },
      { type: 'regex', pattern: 'par', flags: 'i' },
      { type: 'min-confidence', threshold: 60 },
    ]);
  });
  it('returns nothing for a bare row', () => {
    expect(assertionsForRow(row(), [])).toEqual([]);
  });
  it('lets reference-based defaults decide how `expected` is graded', () => {
    const defaults: AssertionSpec[] = [{ type: 'rouge-l', threshold: 0.3 }, { type: 'not-contains', values: ['as an AI'] }];
    expect(assertionsForRow(row({ expected: 'x' }), defaults)).toEqual(defaults);
    expect(assertionsForRow(row(), defaults)).toEqual([{ type: 'not-contains', values: ['as an AI'] }]);
  });
  it('keeps defaults with their own value, and a row min_confidence replaces the default one', () => {
    const defaults: AssertionSpec[] = [{ type: 'f1', value: 'fixed' }, { type: 'min-confidence', threshold: 50 }];
    expect(assertionsForRow(row({ expected: 'x', min_confidence: 80 }), defaults)).toEqual([
      { type: 'reference' }, { type: 'min-confidence', threshold: 80 }, { type: 'f1', value: 'fixed' },
    ]);
  });
  it('grades `expected` by `reference` unless a default compares with it', () => {
    expect(assertionsForRow(row({ expected: 'x' }))).toEqual([{ type: 'reference' }]);
    expect(assertionsForRow(row({ expected: 'x' }), [{ type: 'f1' }])).toEqual([{ type: 'f1' }]);
    expect(assertionsForRow(row({ expected: 'x' }), [{ type: 'reference', threshold: 0.8 }])).toEqual([{ type: 'reference', threshold: 0.8 }]);
    expect(assertionsForRow(row({ expected: 'x' }), [{ type: 'reference', value: 'y' }])).toEqual([
      { type: 'reference' }, { type: 'reference', value: 'y' },
    ]);
    expect(assertionsForRow(row(), [{ type: 'reference' }])).toEqual([]);
  });

  it('bakes run thresholds into reference-based specs that have none', () => {
    const defaults: AssertionSpec[] = [{ type: 'rouge-l' }, { type: 'levenshtein', threshold: 0.9 }];
    expect(assertionsForRow(row({ expected: 'x' }), [], { f1: 0.7 })).toEqual([{ type: 'reference' }]);
    expect(assertionsForRow(row({ expected: 'x' }), [], { reference: 0.7 })).toEqual([{ type: 'reference', threshold: 0.7 }]);
    expect(assertionsForRow(row({ expected: 'x' }), [{ type: 'f1' }], { f1: 0.7 })).toEqual([{ type: 'f1', threshold: 0.7 }]);
    expect(assertionsForRow(row({ expected: 'x' }), defaults, { rougeL: 0.2, levenshtein: 0.5 })).toEqual([
      { type: 'rouge-l', threshold: 0.2 }, { type: 'levenshtein', threshold: 0.9 },
    ]);
  });
});

describe('gradeAnswer', () => {
  it('is ungraded without specs', () => {
    expect(gradeAnswer(row(), { answer: 'x' }, [])).toMatchObject({ graded: false, pass: false, assertions: [] });
  });
  it('passes only when every assertion passes', () => {
    const r = row({ expected: 'Paris is the capital of France' });
    const specs = assertionsForRow(r, [{ type: 'not-contains', values: ['sorry'] }]);
    expect(gradeAnswer(r, { answer: 'The capital of France is Paris.' }, specs).pass).toBe(true);
    const failed = gradeAnswer(r, { answer: 'Sorry, Paris.' }, specs);
    expect(failed.pass).toBe(false);
    expect(failed.assertions.map((a) => a.pass)).toEqual([false, false]);
    // `reference` alone could not decide ("Paris" is in it), `not-contains` decidedly fails: the row fails.
    expect(failed.assertions[0]).toMatchObject({ uncertain: true });
    expect(failed.assertions[0]?.reason).toBe(
      'uncertain: answer has 1 of 3 content words of expected (0.33 < 0.60), missing "capital", "France", but no evidence that it is wrong (no refusal, no conflicting number, words in common)',
    );
    expect(failed.verdict).toBe('fail');
    const unsure = gradeAnswer(r, { answer: 'Paris, I think.' }, specs);
    expect(unsure).toMatchObject({ pass: false, verdict: 'uncertain' });
  });
  it('resolves thresholds: spec, then run config, then default', () => {
    const r = row({ expected: 'w x y z' });
    const answer = { answer: 'w x' }; // F1 = 2/3
    expect(gradeAnswer(r, answer, [{ type: 'f1' }]).pass).toBe(true);
    expect(gradeAnswer(r, answer, [{ type: 'f1' }], { f1: 0.7 }).pass).toBe(false);
    expect(gradeAnswer(r, answer, [{ type: 'f1', threshold: 0.6 }], { f1: 0.7 }).pass).toBe(true);
    expect(gradeAnswer(r, answer, [{ type: 'f1' }], { f1: undefined }).pass).toBe(true);
  });
  it('fails a reference-based spec with nothing to compare with', () => {
    const g = gradeAnswer(row(), { answer: 'x' }, [{ type: 'levenshtein' }]);
    expect(g.assertions[0]?.reason).toContain('no `expected`');
  });
  it('dispatches every built-in type', () => {
    const specs: AssertionSpec[] = [
      { type: 'equals', value: 'ok' }, { type: 'contains', value: 'ok' }, { type: 'icontains', value: 'OK' },
      { type: 'regex', pattern: '^ok$' }, { type: 'f1', value: 'ok' }, { type: 'rouge-l', value: 'ok' },
      { type: 'levenshtein', value: 'ok' }, { type: 'min-confidence', threshold: 10 }, { type: 'max-latency', ms: 100 },
    ];
    const g = gradeAnswer(row(), { answer: 'ok', confidenceScore: 90, latencyMs: 5 }, specs);
    expect(g.assertions.map((a) => a.type)).toEqual(specs.map((s) => s.type));
    expect(g.pass).toBe(true);
  });
  it('leaves custom specs pending and merges their results later', () => {
    const custom: AssertionSpec = { type: 'custom', module: '/x/grader.js' };
    const g = gradeAnswer(row(), { answer: 'ok' }, [{ type: 'contains', value: 'ok' }, custom]);
    expect(g).toMatchObject({ graded: true, pass: true, pending: [custom] });
    const merged = combineGrades(g, [{ type: 'custom', pass: false, score: 0.2, reason: 'meh' }]);
    expect(merged).toEqual({ graded: true, pass: false, verdict: 'fail', assertions: [g.assertions[0], expect.objectContaining({ type: 'custom' })] });
    const onlyCustom = gradeAnswer(row(), { answer: 'ok' }, [custom]);
    expect(onlyCustom).toMatchObject({ graded: true, assertions: [], pending: [custom] });
  });
});

describe('the rule of each assertion, for reports', () => {
  it('says what was checked, whether it passed or not', () => {
    const row = { expected: 'The Personal plan costs $9.99 | $9.99 a month' };
    const answer = { answer: 'It costs $9.99.', confidenceScore: 80, latencyMs: 1200 };
    const grade = gradeAnswer(row, answer, [
      { type: 'f1' },
      { type: 'contains-all', values: ['$9.99', 'month'] },
      { type: 'regex', pattern: '\\$\\d+', flags: 'i' },
      { type: 'min-confidence', threshold: 70 },
      { type: 'max-latency', ms: 5000 },
    ], { f1: 0.3 });
    expect(grade.assertions.map((a) => [a.pass, a.rule])).toEqual([
      [true, 'token F1 ≥ 0.3 against expected "The Personal plan costs $9.99" or "$9.99 a month"'],
      [false, 'must include all of "$9.99", "month" (ignoring case)'],
      [true, 'answer matches /\\$\\d+/i'],
      [true, 'confidence score ≥ 70'],
      [true, 'latency ≤ 5000 ms'],
    ]);
  });
});
