/** Small helpers shared by the graders for readable reasons. Pure: no Node APIs. */
import type { AssertionResult } from '../domain/grade';

/** Formats a 0..1 score for a reason string, e.g. `0.42`. */
export function fmt(score: number): string {
  return score.toFixed(2);
}

/**
 * Quotes a value for a reason string, shortened to `max` characters with an ellipsis.
 * @default max 60
 */
export function quote(text: string, max = 60): string {
  const flat = text.replace(/\s+/gu, ' ');
  const short = [...flat].length > max ? `${[...flat].slice(0, max - 1).join('')}…` : flat;
  return JSON.stringify(short);
}

/** Clamps a number into 0..1 (NaN becomes 0). */
export function clamp01(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Lists quoted phrases for a reason, at most `max` of them. @default max 5 */
export function quoteList(values: readonly string[], max = 5): string {
  const shown = values.slice(0, max).map((v) => quote(v, 40));
  return values.length > max ? `${shown.join(', ')} and ${values.length - max} more` : shown.join(', ');
}

/** Shared pass/reason for threshold-based similarity graders. */
export function verdict(
  label: string,
  score: number,
  threshold: number,
  against: string,
): Pick<AssertionResult, 'pass' | 'score' | 'reason'> {
  const pass = score >= threshold;
  return { pass, score, reason: `${label} ${fmt(score)} ${pass ? '>=' : '<'} ${fmt(threshold)} against ${against}` };
}
