/**
 * Overlap graders: SQuAD token F1 and ROUGE-L (LCS-based F-measure). Pure and deterministic.
 */
import { rougeTokens, squadTokens } from './normalize';
import type { AssertionResult } from '../domain/grade';
import { verdict } from './reasons';

/**
 * SQuAD token F1 between a prediction and a reference: harmonic mean of token precision and recall
 * over multisets of normalized tokens. Two empty texts score 1; one empty text scores 0.
 */
export function tokenF1Score(prediction: string, reference: string): number {
  const pred = squadTokens(prediction);
  const ref = squadTokens(reference);
  if (pred.length === 0 || ref.length === 0) return pred.length === ref.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const token of ref) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of pred) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / pred.length;
  const recall = common / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Length of the longest common subsequence of two token lists, in O(min(n, m)) memory. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  let prev = new Int32Array(short.length + 1);
  let curr = new Int32Array(short.length + 1);
  for (const token of long) {
    for (let j = 1; j <= short.length; j += 1) {
      curr[j] = token === short[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, curr[j - 1] ?? 0);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[short.length] ?? 0;
}

/** ROUGE-L F-measure (beta = 1, as `rouge-score` reports `fmeasure`). Two empty texts score 1. */
export function rougeLScore(prediction: string, reference: string): number {
  const pred = rougeTokens(prediction);
  const ref = rougeTokens(reference);
  if (pred.length === 0 || ref.length === 0) return pred.length === ref.length ? 1 : 0;
  const lcs = lcsLength(pred, ref);
  if (lcs === 0) return 0;
  const precision = lcs / pred.length;
  const recall = lcs / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Token F1 assertion.
 * @param against names the reference in the reason (`expected` or `value`).
 */
export function tokenF1(answer: string, reference: string, threshold: number, against: string): AssertionResult {
  const score = tokenF1Score(answer, reference);
  return { type: 'f1', ...verdict('token F1', score, threshold, against) };
}

/** ROUGE-L assertion. */
export function rougeL(answer: string, reference: string, threshold: number, against: string): AssertionResult {
  const score = rougeLScore(answer, reference);
  return { type: 'rouge-l', ...verdict('ROUGE-L', score, threshold, against) };
}
