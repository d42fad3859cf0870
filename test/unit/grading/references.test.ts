import { describe, expect, it } from 'vitest';
import { bestOverReferences, formatReferences, gradeAnswer, parseReferences, type AssertionResult } from '../../../src/grading';

describe('parseReferences', () => {
  it('splits on `|` and trims each reference', () => {
    expect(parseReferences('Paris')).toEqual(['Paris']);
    expect(parseReferences(' Paris |City of Paris|  Paris, France ')).toEqual(['Paris', 'City of Paris', 'Paris, France']);
  });
  it('reads `\\|` as a literal bar', () => {
    expect(parseReferences('a \\| b|c')).toEqual(['a | b', 'c']);
    expect(parseReferences('\\|')).toEqual(['|']);
  });
  it('keeps a backslash before anything else', () => {
    expect(parseReferences('C:\\temp|x\\')).toEqual(['C:\\temp', 'x\\']);
  });
  it('drops empty and blank parts', () => {
    expect(parseReferences('|a||  |b|')).toEqual(['a', 'b']);
    expect(parseReferences(' | | ')).toEqual([]);
    expect(parseReferences('')).toEqual([]);
  });
  it('round-trips through formatReferences', () => {
    const refs = ['1 | 2', 'plain', 'back\\slash'];
    expect(formatReferences(refs)).toBe('1 \\| 2|plain|back\\slash');
    expect(parseReferences(formatReferences(refs))).toEqual(refs);
    expect(formatReferences([' a ', '', 'b'])).toBe('a|b');
  });
});

describe('bestOverReferences', () => {
  const fake = (scores: Record<string, [boolean, number]>) => (reference: string): AssertionResult => {
    const [pass, score] = scores[reference] ?? [false, 0];
    return { type: 'f1', pass, score, reason: `score ${score}` };
  };
  it('keeps the best passing result and records its reference', () => {
    const result = bestOverReferences(['a', 'b', 'c'], fake({ a: [false, 0.9], b: [true, 0.6], c: [true, 0.8] }));
    expect(result).toEqual({ type: 'f1', pass: true, score: 0.8, matched: 'c', reason: 'score 0.8 (matched: reference 3 of 3, "c")' });
  });
  it('without a pass, keeps the closest and records no match', () => {
    const result = bestOverReferences(['a', 'b'], fake({ a: [false, 0.2], b: [false, 0.4] }));
    expect(result).toEqual({ type: 'f1', pass: false, score: 0.4, reason: 'score 0.4 (closest: reference 2 of 2, "b")' });
  });
  it('leaves the reason alone for a single reference', () => {
    expect(bestOverReferences(['a'], fake({ a: [true, 1] }))).toEqual({ type: 'f1', pass: true, score: 1, matched: 'a', reason: 'score 1' });
  });
});

describe('reference-based graders over several references', () => {
  const row = { expected: 'Lyon|Paris|Marseille' };
  it('f1, rouge-l and levenshtein pass when any reference does', () => {
    for (const type of ['f1', 'rouge-l', 'levenshtein'] as const) {
      const grade = gradeAnswer(row, { answer: 'Paris' }, [{ type }]);
      expect(grade.pass, type).toBe(true);
      expect(grade.assertions[0]?.matched, type).toBe('Paris');
    }
    expect(gradeAnswer(row, { answer: 'Nice' }, [{ type: 'f1' }]).pass).toBe(false);
  });
  it('splits a `value` too', () => {
    const grade = gradeAnswer({}, { answer: 'It is in Paris.' }, [{ type: 'reference', value: 'Lyon | Paris' }]);
    expect(grade.assertions[0]).toMatchObject({ pass: true, matched: 'Paris' });
  });
  it('fails with a reason when `expected` has only separators', () => {
    const grade = gradeAnswer({ expected: ' | ' }, { answer: 'x' }, [{ type: 'reference' }]);
    expect(grade.assertions[0]).toEqual({
      type: 'reference', pass: false, score: 0, reason: 'nothing to compare with: `expected` has no reference between its `|`',
      rule: 'gives the answer of nothing (no reference in `expected`) (content words ≥ 0.6 for longer references)',
    });
  });
});
