/**
 * Text graders: equals, contains, icontains, contains-all, contains-any, not-contains, regex.
 * Pure and deterministic. Substring checks collapse whitespace on both sides; the list checks
 * (contains-all / contains-any / not-contains) ignore case, as the dataset columns feeding them do.
 */
import { normalizeForEquals, normalizeForSearch } from './normalize';
import { compileRegex, type RegexSource } from './regex';
import type { AssertionResult } from '../domain/grade';
import { fmt, quote, quoteList } from './reasons';

/** Equal after normalizing case, whitespace and punctuation at the ends. */
export function equals(answer: string, value: string): AssertionResult {
  const pass = normalizeForEquals(answer) === normalizeForEquals(value);
  const reason = pass ? `answer equals ${quote(value)}` : `answer ${quote(answer)} does not equal ${quote(value)}`;
  return { type: 'equals', pass, score: pass ? 1 : 0, reason };
}

/** Case-sensitive substring. */
export function contains(answer: string, value: string): AssertionResult {
  const pass = normalizeForSearch(answer, false).includes(normalizeForSearch(value, false));
  return { type: 'contains', pass, score: pass ? 1 : 0, reason: `${pass ? 'contains' : 'does not contain'} ${quote(value)}` };
}

/** Case-insensitive substring. */
export function icontains(answer: string, value: string): AssertionResult {
  const pass = found(answer, [value]).length === 1;
  const reason = `${pass ? 'contains' : 'does not contain'} ${quote(value)} (ignoring case)`;
  return { type: 'icontains', pass, score: pass ? 1 : 0, reason };
}

/** Every phrase must appear (ignoring case); the score is the fraction found. */
export function containsAll(answer: string, values: readonly string[]): AssertionResult {
  const hits = found(answer, values);
  const missing = values.filter((v) => !hits.includes(v));
  const score = values.length === 0 ? 1 : hits.length / values.length;
  const pass = missing.length === 0;
  const reason = pass
    ? `contains all ${values.length} phrases`
    : `missing ${missing.length} of ${values.length} phrases: ${quoteList(missing)} (score ${fmt(score)})`;
  return { type: 'contains-all', pass, score, reason };
}

/** At least one phrase must appear (ignoring case). An empty list passes. */
export function containsAny(answer: string, values: readonly string[]): AssertionResult {
  const hits = found(answer, values);
  const pass = values.length === 0 || hits.length > 0;
  const reason = hits.length > 0 ? `contains ${quote(hits[0] ?? '')}` : values.length === 0
    ? 'no phrases to look for'
    : `contains none of ${quoteList(values)}`;
  return { type: 'contains-any', pass, score: pass ? 1 : 0, reason };
}

/** No phrase may appear (ignoring case); the score is the fraction absent. */
export function notContains(answer: string, values: readonly string[]): AssertionResult {
  const hits = found(answer, values);
  const score = values.length === 0 ? 1 : 1 - hits.length / values.length;
  const pass = hits.length === 0;
  const reason = pass ? `contains none of ${values.length} forbidden phrases` : `contains forbidden ${quoteList(hits)}`;
  return { type: 'not-contains', pass, score, reason };
}

/** The pattern must match somewhere in the raw answer. */
export function regex(answer: string, source: RegexSource): AssertionResult {
  const shown = `/${source.pattern}/${source.flags ?? ''}`;
  const re = compileRegex(source);
  if (typeof re === 'string') return { type: 'regex', pass: false, score: 0, reason: `invalid regex ${shown}: ${re}` };
  const match = re.exec(answer);
  if (match === null) return { type: 'regex', pass: false, score: 0, reason: `${shown} does not match` };
  return { type: 'regex', pass: true, score: 1, reason: `${shown} matches ${quote(match[0], 40)}` };
}

function found(answer: string, values: readonly string[]): string[] {
  const haystack = normalizeForSearch(answer, true);
  return values.filter((v) => haystack.includes(normalizeForSearch(v, true)));
}
