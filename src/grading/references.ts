/**
 * Several acceptable answers in one `expected` cell, as public QA sets ship them: `Paris|City of Paris`.
 * `\|` is a literal bar. Parts are trimmed and empty parts dropped. Pure and deterministic.
 */
import type { AssertionResult } from '../domain/grade';
import { quote } from './reasons';

/**
 * The references in an `expected` value, in order: split on every `|` not preceded by a backslash,
 * `\|` unescaped to `|`; a backslash before anything else is kept as written.
 */
export function parseReferences(expected: string): string[] {
  const references: string[] = [];
  let current = '';
  for (let i = 0; i < expected.length; i += 1) {
    const ch = expected[i];
    if (ch === '\\' && expected[i + 1] === '|') {
      current += '|';
      i += 1;
    } else if (ch === '|') {
      references.push(current);
      current = '';
    } else current += ch;
  }
  references.push(current);
  return references.map((r) => r.trim()).filter((r) => r.length > 0);
}

/** The inverse of {@link parseReferences}: one `expected` value holding every reference. */
export function formatReferences(references: readonly string[]): string {
  return references.map((r) => r.trim().replace(/\|/gu, '\\|')).filter((r) => r.length > 0).join('|');
}

/**
 * Grades an answer against each reference and keeps the best: the highest-scoring passing result
 * (recording its reference in `matched`), else the highest-scoring failure. With several references
 * the reason says which one.
 */
export function bestOverReferences(
  references: readonly string[],
  grade: (reference: string) => AssertionResult,
): AssertionResult {
  let best: { result: AssertionResult; index: number } | undefined;
  for (const [index, reference] of references.entries()) {
    const result = grade(reference);
    const better = best === undefined
      || (result.pass && !best.result.pass)
      || (result.pass === best.result.pass && result.score > best.result.score);
    if (better) best = { result, index };
  }
  if (best === undefined) throw new Error('no reference to compare with');
  const reference = references[best.index] ?? '';
  const result = best.result.pass ? { ...best.result, matched: reference } : best.result;
  return describe(result, best.index, references.length, reference);
}

function describe(result: AssertionResult, index: number, count: number, reference: string): AssertionResult {
  if (count === 1) return result;
  const which = result.pass ? 'matched' : 'closest';
  return { ...result, reason: `${result.reason} (${which}: reference ${index + 1} of ${count}, ${quote(reference, 40)})` };
}
