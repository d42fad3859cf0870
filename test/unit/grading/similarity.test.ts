import { describe, expect, it } from 'vitest';
import { levenshtein, levenshteinDistance, levenshteinSimilarity } from '../../../src/grading';

describe('Levenshtein', () => {
  it('computes edit distance', () => {
    expect(levenshteinDistance('kitten', 'sitting')).toBe(3);
    expect(levenshteinDistance('', 'abc')).toBe(3);
    expect(levenshteinDistance('abc', 'abc')).toBe(0);
  });
  it('counts code points, not UTF-16 units', () => {
    expect(levenshteinDistance('😀a', '😁a')).toBe(1);
  });
  it('normalizes before comparing', () => {
    expect(levenshteinSimilarity('Hello, World!', 'hello world')).toBeCloseTo(1 - 1 / 12);
    expect(levenshteinSimilarity('  PARIS.', 'paris')).toBe(1);
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('', 'x')).toBe(0);
  });
  it('passes at the threshold and explains', () => {
    const r = levenshtein('kitten', 'sitten', 0.8, 'expected');
    expect(r.score).toBeCloseTo(5 / 6);
    expect(r).toMatchObject({ type: 'levenshtein', pass: true, reason: 'Levenshtein similarity 0.83 >= 0.80 against expected' });
    expect(levenshtein('abc', 'xyz', 0.8, 'value').pass).toBe(false);
  });
});
