/**
 * When the `reference` grader does not find the reference's answer in an answer, is that evidence of a wrong answer,
 * or only of other words? A lexical grader cannot see paraphrase ("deep sea" for "underwater"), so it says `fail` only
 * on evidence a reader would accept without knowing the subject, and `uncertain` otherwise:
 *
 * - **refusal**: the answer declines ("I'm sorry, I couldn't find …", "I don't know");
 * - **nothing new**: every content word of the answer is already in the question;
 * - **conflicting number**: the reference is a quantity (numbers, with their units) and the answer gives another
 *   number of that unit, and none that agrees with it (the same value up to rounding by 1 % or a scale of
 *   hundred/thousand/million/billion, or inside a range the reference gives); in a longer reference, a number with a
 *   unit ("5 GB") that the answer gives otherwise in the same unit ("10 GB");
 * - **nothing in common**: the answer shares no content word with the reference, beyond the question's own words
 *   (so another name where the reference is a name, another place, another thing). Words are matched loosely
 *   (a common stem of five letters, or one letter apart) so that spelling variants are not evidence.
 *
 * Every reference must give evidence (an answer that shares words with any acceptable answer stays uncertain), and
 * a reference that is only yes/no/true/false never does (an answer can agree without those words).
 * Pure and deterministic (workflow-safe).
 */
import { isStopWord, referenceTokens } from './referenceText';
import { levenshteinDistance } from './similarity';
import { quoteList } from './reasons';

/** Which evidence decided a fail. */
export type FailEvidence = 'refusal' | 'nothing-new' | 'conflicting-number' | 'nothing-in-common';

/** Why an answer that does not give the reference's answer is wrong. */
export interface FailFinding {
  evidence: FailEvidence;
  /** In words, for the assertion's reason. */
  reason: string;
}

/**
 * A refusal, in the words assistants use. Matched on the raw answer, any apostrophe. An answer that also gives the
 * reference's answer passes before this is asked.
 */
const REFUSAL = new RegExp(
  [
    "\\bi['’]?m sorry\\b", '\\bi am sorry\\b', '\\bi apologi[sz]e\\b',
    "\\b(?:i|we) (?:could ?n['’]?t|can ?n['’]?t|cannot|am unable|was unable|am not able|do ?n['’]?t know|do not know|do ?n['’]?t have|do not have)\\b",
    '\\bunable to (?:find|determine|provide|answer)\\b',
    '\\b(?:no|not enough|insufficient) (?:information|data|record)',
    '\\bthere (?:is|are) no (?:known|information|record|such)\\b',
    '\\bas an ai\\b',
  ].join('|'),
  'iu',
);

/** References that are a polarity: an answer agrees with them in its own words ("Yes, …", "No, it is …"). */
const POLAR: ReadonlySet<string> = new Set(['true', 'false', 'yes', 'no'].flatMap((w) => referenceTokens(w)));

/** Currency words stand before their number ("£50" → `pound 50`). */
const UNITS_BEFORE = new Set(['dollar', 'pound', 'euro']);

/** Numbers agree at these scales ("£50m" and "£50 million", "0.9" and "90 %"). */
const SCALES = [1, 100, 1_000, 1_000_000, 1_000_000_000] as const;

/** Relative rounding two numbers may differ by and still agree ("24,901 miles" for "24,900 miles"). */
const ROUNDING = 0.01;

interface Quantity {
  value: number;
  unit?: string;
}

function isNumber(token: string): boolean {
  return /^\d+(?:\.\d+)?$/u.test(token);
}

/** The numbers of a token list, each with its unit: the content word after it, or a currency word before it. */
function quantitiesOf(tokens: readonly string[]): Quantity[] {
  const out: Quantity[] = [];
  tokens.forEach((token, i) => {
    if (!isNumber(token)) return;
    const after = tokens[i + 1];
    const before = tokens[i - 1];
    const unit = after !== undefined && !isNumber(after) && !isStopWord(after)
      ? after
      : before !== undefined && UNITS_BEFORE.has(before) ? before : undefined;
    out.push(unit === undefined ? { value: Number(token) } : { value: Number(token), unit });
  });
  return out;
}

function written(quantities: readonly Quantity[]): string[] {
  return [...new Set(quantities.map((q) => (q.unit === undefined ? String(q.value) : `${q.value} ${q.unit}`)))];
}

function agrees(a: number, b: number): boolean {
  return SCALES.some((s) => Math.abs(a * s - b) <= ROUNDING * Math.abs(b) || Math.abs(a - b * s) <= ROUNDING * Math.abs(b * s));
}

/** Spelling variants: equal, a common start of five letters (all of a shorter word of four), or one letter apart. */
function near(a: string, b: string): boolean {
  if (a === b) return true;
  if (isNumber(a) || isNumber(b)) return false;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common += 1;
  return common >= Math.min(5, shorter) || levenshteinDistance(a, b) <= 1;
}

/** How much evidence a fail needs: the benchmark varies these to trace agreement against coverage. */
export interface EvidenceOptions {
  /**
   * "Nothing in common" also holds when the answer shares at most this share of the reference's content words (beyond
   * the question's). 0: none at all. @default 0
   */
  maxShared?: number;
  /** The kinds of evidence that count. @default all of them */
  rules?: readonly FailEvidence[];
}

/** Every kind of evidence, in the order they are looked for. */
export const FAIL_EVIDENCE = ['refusal', 'nothing-new', 'conflicting-number', 'nothing-in-common'] as const satisfies readonly FailEvidence[];

/** What of the answer the rules look at. */
interface AnswerWords {
  tokens: readonly string[];
  /** Content words of the answer that the question does not contain. */
  own: readonly string[];
  question: ReadonlySet<string>;
  maxShared: number;
  rules: ReadonlySet<FailEvidence>;
}

/** Evidence against one reference, or undefined when there is none. */
function againstReference(reference: string, answer: AnswerWords): FailFinding | undefined {
  const tokens = referenceTokens(reference);
  const content = tokens.filter((t) => !isStopWord(t));
  if (content.length === 0 || content.every((t) => POLAR.has(t))) return undefined;
  const quantities = quantitiesOf(tokens);
  const units = new Set(quantities.flatMap((q) => (q.unit === undefined ? [] : [q.unit])));
  const isQuantity = quantities.length > 0 && content.every((t) => isNumber(t) || units.has(t) || answer.question.has(t));
  const given = answer.rules.has('conflicting-number') ? quantitiesOf(answer.tokens) : [];
  if (isQuantity && given.length > 0) return conflictingNumber(quantities, units, given);
  // In a longer reference only numbers with a unit are compared, and only with the answer's numbers of that unit
  // ("10 GB" against "…5 GB of storage…"): a bare number of a sentence may be anything.
  const measured = quantities.filter((q) => q.unit !== undefined);
  const sameUnit = given.filter((g) => g.unit !== undefined && measured.some((q) => q.unit === g.unit));
  if (!isQuantity && sameUnit.length > 0) {
    const conflict = conflictingNumber(measured, new Set(measured.map((q) => q.unit ?? '')), sameUnit);
    if (conflict) return conflict;
  }
  const words = content.filter((t) => !answer.question.has(t));
  if (words.length === 0 || !answer.rules.has('nothing-in-common')) return undefined;
  const shared = words.filter((r) => answer.own.some((w) => near(w, r))).length;
  if (shared / words.length > answer.maxShared) return undefined;
  const reason = shared === 0
    ? 'answer shares no content word with the reference (beyond the question\'s)'
    : `answer shares only ${shared} of the reference's ${words.length} content words (beyond the question's)`;
  return { evidence: 'nothing-in-common', reason };
}

function conflictingNumber(reference: readonly Quantity[], units: ReadonlySet<string>, given: readonly Quantity[]): FailFinding | undefined {
  const values = reference.map((q) => q.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const range = values.length === 2;
  if (given.some((g) => values.some((v) => agrees(g.value, v)) || (range && g.value >= low && g.value <= high))) return undefined;
  // A number of another unit may be the same quantity converted ("40,075 km" for "24,900 miles"): no evidence.
  const comparable = given.filter((g) => g.unit === undefined || units.size === 0 || units.has(g.unit));
  if (comparable.length === 0) return undefined;
  return { evidence: 'conflicting-number', reason: `answer gives ${quoteList(written(comparable), 3)}, not the reference's ${quoteList(written(reference), 3)}` };
}

/**
 * Evidence that an answer which does not give any reference's answer is wrong, or undefined when there is none (then
 * the `reference` grader is uncertain). `question` is the row's question; without it no word counts as the question's.
 */
export function failEvidence(answer: string, references: readonly string[], question = '', options: EvidenceOptions = {}): FailFinding | undefined {
  const rules = new Set<FailEvidence>(options.rules ?? FAIL_EVIDENCE);
  if (rules.has('refusal') && REFUSAL.test(answer)) return { evidence: 'refusal', reason: 'answer declines to answer' };
  const asked = new Set(referenceTokens(question));
  const tokens = referenceTokens(answer);
  const own = tokens.filter((t) => !isStopWord(t) && !asked.has(t));
  if (own.length === 0) {
    return rules.has('nothing-new') ? { evidence: 'nothing-new', reason: 'answer adds nothing to the question: its content words are all the question\'s' } : undefined;
  }
  const words: AnswerWords = { tokens, own, question: asked, maxShared: options.maxShared ?? 0, rules };
  const findings: FailFinding[] = [];
  for (const reference of references) {
    const finding = againstReference(reference, words);
    if (finding === undefined) return undefined;
    findings.push(finding);
  }
  // A conflicting number says more than words in common; it is the reason shown when some reference gave it.
  const shown = findings.find((f) => f.evidence === 'conflicting-number') ?? findings[0];
  if (shown === undefined || references.length === 1) return shown;
  return { ...shown, reason: `${shown.reason} (so with each of the ${references.length} references)` };
}
