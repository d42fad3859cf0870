/**
 * The `reference` grader, the default for a row's `expected`: does the answer give the reference's
 * answer? Not "is the answer as short as the reference": a chat answer that wraps "30 days" in two
 * sentences passes. Pure and deterministic (workflow-safe). On normalized tokens (`referenceTokens`):
 *
 * 1. **Contains**: the answer contains the whole reference, its tokens in a row (or run together:
 *    "bee keeper" in "beekeeper") → pass, score 1.
 * 2. **Part of**: every content word of the answer is one of the reference's, and it has at least half
 *    of them ("Hammer" for "Hammer (rapper)", "Citric" for "Citric acid") → pass.
 * 3. **Content words**: otherwise the score is the share of the reference's content words (function
 *    words dropped) the answer contains. A reference of one or two content words needs all of them; a
 *    longer one needs `threshold` of them, and every number it has.
 *
 * A parenthesized part of a reference is optional: "(John) Ehrlichman" is also tried as "Ehrlichman".
 * A reference made only of function words ("The Who") must appear as written, case included.
 */
import { lightStem } from '../shared/text/stem';
import { isStopWord, referenceTokens } from './referenceText';
import type { AssertionResult } from '../domain/grade';
import { fmt, quoteList } from './reasons';

/** Which rule decided; `function-words` for a reference without content words. */
export type ReferenceRule = 'contains' | 'part-of' | 'content-words' | 'function-words';

/** How one answer compares with one reference. */
export interface ReferenceComparison {
  rule: ReferenceRule;
  /** 1 when the answer contains the reference, else the share of its content words the answer has. */
  score: number;
  /** The reference's content words (normalized) the answer lacks. */
  missing: string[];
  /** The reference's numbers, each with the word after it (its unit: "1 hour"), that the answer lacks. */
  missingQuantities: string[];
  /** How many content words the reference has. */
  contentWords: number;
}

/** References with at most this many content words need all of them (rule 3). */
export const ALL_WORDS_UP_TO = 2;

/** The share of the reference's content words an answer made only of them needs (rule 2). */
export const PART_OF_MIN_SHARE = 0.5;

/** An answer normalized once, for comparing with many references. */
export interface PreparedAnswer {
  text: string;
  tokens: readonly string[];
  /** The distinct tokens. */
  present: ReadonlySet<string>;
  /** The tokens that are not function words. */
  contentWords: readonly string[];
}

/** Normalizes an answer for {@link compareWithReference} and {@link referenceAnswer}. */
export function prepareAnswer(text: string): PreparedAnswer {
  const tokens = referenceTokens(text);
  return { text, tokens, present: new Set(tokens), contentWords: tokens.filter((t) => !isStopWord(t)) };
}

/** Compares an answer with one reference (rules 1–3, without the parenthesis variant). */
export function compareWithReference(answer: string | PreparedAnswer, reference: string): ReferenceComparison {
  const { text, tokens: ans, present, contentWords: answerWords } = typeof answer === 'string' ? prepareAnswer(answer) : answer;
  const ref = referenceTokens(reference);
  if (ref.length === 0 || ref.every(isStopWord)) {
    const found = containsAsWritten(text, reference);
    return { rule: 'function-words', score: found ? 1 : 0, missing: found ? [] : [reference.trim()], missingQuantities: [], contentWords: 0 };
  }
  const content = [...new Set(ref.filter((t) => !isStopWord(t)))];
  if (containsRun(ans, ref)) return { rule: 'contains', score: 1, missing: [], missingQuantities: [], contentWords: content.length };
  const missing = content.filter((t) => !present.has(t));
  const score = 1 - missing.length / content.length;
  const own = new Set(ref);
  const partOf = answerWords.length > 0 && answerWords.every((t) => own.has(t)) && score >= PART_OF_MIN_SHARE;
  const missingQuantities = quantities(ref).filter((q) => !containsRun(ans, q)).map((q) => q.join(' '));
  return { rule: partOf ? 'part-of' : 'content-words', score, missing, missingQuantities, contentWords: content.length };
}

/** Whether a comparison passes at `threshold` (see the rules above). */
export function comparisonPasses(c: ReferenceComparison, threshold: number): boolean {
  switch (c.rule) {
    case 'contains':
    case 'part-of': return true;
    case 'function-words': return c.score === 1;
    case 'content-words':
      return c.contentWords <= ALL_WORDS_UP_TO ? c.missing.length === 0 : c.score >= threshold && c.missingQuantities.length === 0;
  }
}

/**
 * The `reference` assertion against one reference (and its variant without parenthesized parts).
 * @param against names the reference in the reason (`expected` or `value`).
 */
export function referenceAnswer(
  answer: string | PreparedAnswer,
  reference: string,
  threshold: number,
  against: string,
): AssertionResult {
  const full = compareWithReference(answer, reference);
  const bare = withoutParentheses(reference);
  const short = bare === undefined ? undefined : compareWithReference(answer, bare);
  const fullPasses = comparisonPasses(full, threshold);
  const useShort = bare !== undefined && short !== undefined && !fullPasses
    && (comparisonPasses(short, threshold) || short.score > full.score);
  const c = useShort ? short : full;
  const pass = comparisonPasses(c, threshold);
  const named = useShort ? `${against} (without its parenthesized part)` : against;
  return { type: 'reference', pass, score: c.score, reason: describe(c, pass, threshold, named, useShort ? bare : reference) };
}

function describe(c: ReferenceComparison, pass: boolean, threshold: number, against: string, reference: string): string {
  const found = c.contentWords - c.missing.length;
  switch (c.rule) {
    case 'contains': return `answer contains the ${against} answer`;
    case 'function-words': return `${against} is only function words: ${pass ? 'found' : 'not found'} as written`;
    case 'part-of': return `answer is part of the ${against} answer (${found} of its ${c.contentWords} content words, nothing else)`;
    case 'content-words': {
      const allNeeded = c.contentWords <= ALL_WORDS_UP_TO;
      const rule = allNeeded ? 'all needed' : `${fmt(c.score)} ${c.score >= threshold ? '>=' : '<'} ${fmt(threshold)}`;
      const numbers = !allNeeded && c.missingQuantities.length > 0
        ? `; every number needed, with its unit: missing ${quoteList(c.missingQuantities)}`
        : '';
      const lacking = c.missing.length === 0 ? '' : `, missing ${quoteList(asWritten(reference, c.missing))}`;
      return `answer has ${found} of ${c.contentWords} content words of ${against} (${rule}${numbers})${lacking}`;
    }
  }
}

/** Normalized tokens as the reference writes them ("Seattle" for `seattl`), for reasons; only the five a reason shows. */
function asWritten(reference: string, tokens: readonly string[]): string[] {
  const words = new Map<string, string>();
  for (const raw of reference.split(/\s+/u)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    const normalized = referenceTokens(word);
    if (normalized.length === 1 && normalized[0] !== undefined && !words.has(normalized[0])) words.set(normalized[0], word);
  }
  return tokens.map((t, i) => (i < 5 ? words.get(t) ?? t : t));
}

function isNumber(token: string): boolean {
  return /\d/u.test(token);
}

/** Each number of the reference, with the content word right after it when there is one ("5 gb", "1 hour"). */
function quantities(ref: readonly string[]): string[][] {
  return ref.flatMap((token, i) => {
    if (!isNumber(token)) return [];
    const unit = ref[i + 1];
    return [unit === undefined || isNumber(unit) || isStopWord(unit) ? [token] : [token, unit]];
  });
}

/** The reference with its parenthesized parts removed, when that changes it and leaves content words. */
function withoutParentheses(reference: string): string | undefined {
  const bare = reference.replace(/\([^()]*\)/gu, ' ').replace(/\s+/gu, ' ').trim();
  if (bare === reference.trim() || referenceTokens(bare).every(isStopWord)) return undefined;
  return bare;
}

/**
 * The tokens of `needle` in a row in `haystack`. Runs also match when their tokens joined are equal, or
 * equal after stemming: "bee keeper" is found in "beekeeper", "D-I-V-O-R-C-E" in "divorce".
 */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  const compact = needle.join('');
  const stemmed = lightStem(compact);
  for (let i = 0; i < haystack.length; i += 1) {
    const first = haystack[i] ?? '';
    if (!compact.startsWith(first) && !stemmed.startsWith(first)) continue;
    let joined = '';
    for (let j = i; j < haystack.length && joined.length < compact.length; j += 1) {
      joined += haystack[j];
      if (joined === compact || (needle.length + j - i > 1 && lightStem(joined) === stemmed)) return true;
    }
  }
  return false;
}

/** Case-sensitive search of the reference, as a whole word, whitespace collapsed. */
function containsAsWritten(answer: string, reference: string): boolean {
  const text = answer.normalize('NFKC').replace(/\s+/gu, ' ');
  const needle = reference.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  if (needle === '') return false;
  const wordChar = /[\p{L}\p{N}]/u;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + needle.length] ?? ' ';
    if (!wordChar.test(before) && !wordChar.test(after)) return true;
  }
  return false;
}
