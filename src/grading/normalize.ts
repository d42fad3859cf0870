/**
 * Text normalization shared by the graders. Pure and deterministic (no Node APIs, no locale-dependent
 * calls), so it is safe inside the Temporal workflow sandbox.
 */

import { foldCase } from '../shared/text/fold';
import { spaceCharacterScripts } from '../shared/text/words';

/** Collapses every run of whitespace (newlines included) into one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * Sentence punctuation, quotes, brackets and dashes that `equals` ignores at either end.
 * Deliberately not all of `\p{P}`: `50%` must not equal `50`.
 */
const EDGE_PUNCTUATION = /^[\p{Ps}\p{Pe}\p{Pi}\p{Pf}\p{Pd}.,;:!?¡¿…。，、！？；：'"`*_\s]+|[\p{Ps}\p{Pe}\p{Pi}\p{Pf}\p{Pd}.,;:!?¡¿…。，、！？；：'"`*_\s]+$/gu;

/** Normalization for `equals` and Levenshtein: case, whitespace, and punctuation at the ends. */
export function normalizeForEquals(text: string): string {
  return collapseWhitespace(foldCase(text)).replace(EDGE_PUNCTUATION, '');
}

/** Normalization for substring checks: case-folded (when asked) with whitespace collapsed. */
export function normalizeForSearch(text: string, ignoreCase: boolean): string {
  const normalized = text.normalize('NFKC');
  return collapseWhitespace(ignoreCase ? normalized.toLowerCase() : normalized);
}

/**
 * SQuAD answer normalization: lower-case, delete punctuation (and symbols, as Python's
 * `string.punctuation` does), drop the English articles a/an/the, split on whitespace.
 * Han/Hiragana/Katakana characters are split into single-character tokens (as MLQA does).
 */
export function squadTokens(text: string): string[] {
  const noPunct = foldCase(text).replace(/[\p{P}\p{S}]/gu, '');
  const noArticles = noPunct.replace(/(^|\s)(?:a|an|the)(?=\s|$)/gu, '$1 ');
  return splitTokens(noArticles);
}

/**
 * ROUGE tokenization (as Google's `rouge-score`): lower-case, every non letter/number becomes a
 * separator; articles are kept. Han/Hiragana/Katakana characters are single tokens.
 */
export function rougeTokens(text: string): string[] {
  return splitTokens(foldCase(text).replace(/[^\p{L}\p{N}\p{M}]+/gu, ' '));
}

function splitTokens(text: string): string[] {
  return spaceCharacterScripts(text).split(/\s+/u).filter((t) => t.length > 0);
}
