/** Edit-distance grader: normalized Levenshtein similarity. Pure and deterministic. */
import { normalizeForEquals } from './normalize';
import type { AssertionResult } from '../domain/grade';
import { verdict } from './reasons';

/** Levenshtein distance over Unicode code points, in O(min(n, m)) memory. */
export function levenshteinDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const [long, short] = x.length >= y.length ? [x, y] : [y, x];
  let prev = new Int32Array(short.length + 1);
  let curr = new Int32Array(short.length + 1);
  for (let j = 0; j <= short.length; j += 1) prev[j] = j;
  for (let i = 1; i <= long.length; i += 1) {
    curr[0] = i;
    for (let j = 1; j <= short.length; j += 1) {
      const cost = long[i - 1] === short[j - 1] ? 0 : 1;
      curr[j] = Math.min((prev[j] ?? 0) + 1, (curr[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[short.length] ?? 0;
}

/**
 * `1 - distance / max(length)` after `equals` normalization (case, whitespace, end punctuation).
 * Two empty texts are identical (1).
 */
export function levenshteinSimilarity(a: string, b: string): number {
  const x = normalizeForEquals(a);
  const y = normalizeForEquals(b);
  const longest = Math.max([...x].length, [...y].length);
  return longest === 0 ? 1 : 1 - levenshteinDistance(x, y) / longest;
}

/** Levenshtein assertion. */
export function levenshtein(answer: string, reference: string, threshold: number, against: string): AssertionResult {
  return { type: 'levenshtein', ...verdict('Levenshtein similarity', levenshteinSimilarity(answer, reference), threshold, against) };
}
