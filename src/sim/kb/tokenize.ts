/**
 * Text processing shared by indexing and querying: tokenizing, stop words, index terms (the fuller of the two
 * stemmers of `src/shared/text/stem.ts`, so "share", "shared", "sharing" meet, plus irregular forms and synonyms)
 * and sentence splitting.
 */
import { foldMarks } from '../../shared/text/fold';
import { suffixStem } from '../../shared/text/stem';

const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are aren as at be because been before being below between both but by ' +
    'can cannot could couldn did didn do does doesn doing don down during each either else ever every few for from further ' +
    'get gets got had has hasn have haven having he her here hers him his how i if in into is isn it its itself just let long ' +
    'll me might more most much must my myself need no nor not now of off on one only or other our ours out over own ' +
    'please re s same shall she should so some such t than that the their theirs them then there these they this those through ' +
    'to too under until up us ve very want was wasn way we were weren what when where whether which while who whom why will ' +
    'with within without won would you your yours yourself someone something anyone anything everyone everything ' +
    'somebody anybody everybody'
  ).split(' '),
);

/** Irregular forms a suffix stemmer cannot reach. */
const IRREGULAR: Readonly<Record<string, string>> = {
  kept: 'keep', paid: 'pay', lost: 'lose', sent: 'send', made: 'make', bought: 'buy', took: 'take', taken: 'take',
  gone: 'go', went: 'go', chose: 'choose', chosen: 'choose', left: 'leave', found: 'find', gave: 'give', given: 'give',
  ran: 'run', saw: 'see', seen: 'see', wrote: 'write', written: 'write', forgot: 'forget', forgotten: 'forget',
  stolen: 'steal', broken: 'break', children: 'child', people: 'person',
};

/** Synonyms folded onto one index term (after stemming), at index and query time alike. */
const CANONICAL: Readonly<Record<string, string>> = {
  pric: 'cost', fee: 'cost', recover: 'restor', retriev: 'restor', remov: 'delet', eras: 'delet',
  sso: 'singl', '2fa': 'two', mfa: 'two',
};

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/** One raw token to an index term, or null for stop words and single letters. */
export function toTerm(token: string): string | null {
  const t = foldMarks(token); // questions are often typed without accents ("Rene" for "René")
  if (t.length === 0 || STOP_WORDS.has(t) || (t.length === 1 && !/\d/.test(t))) return null;
  // Own keys only: "constructor" or "toString" in a document must not reach Object.prototype.
  const stemmed = suffixStem(Object.hasOwn(IRREGULAR, t) ? (IRREGULAR[t] as string) : t);
  return Object.hasOwn(CANONICAL, stemmed) ? (CANONICAL[stemmed] as string) : stemmed;
}

/** The index terms of a text, in order, duplicates kept. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const token of text.split(WORD_SPLIT)) {
    const term = toTerm(token);
    if (term !== null) out.push(term);
  }
  return out;
}

/** Raw tokens (for MiniSearch's tokenizer). */
export function tokens(text: string): string[] {
  return text.split(WORD_SPLIT).filter((t) => t.length > 0);
}

/** The raw tokens of a text, folded (`foldMarks`): words compared as written, not as index terms. */
export function foldedWords(text: string): string[] {
  return tokens(text).map(foldMarks);
}

/** Words whose period does not end a sentence ("St. Bartholomew", "Dr. Smith", "c. 1560", "J. Smith", "U.S. Army"). */
const ABBREVIATION = /(?:^|[\s(])(?:st|mr|mrs|ms|dr|prof|rev|gen|col|capt|lt|sgt|gov|sen|rep|jr|sr|no|vol|ca|c|d|fl|vs|etc|approx|[A-Z]|(?:[A-Za-z]\.)+[A-Za-z])\.$/i;

/** Splits prose into sentences at `.`, `!` or `?` followed by whitespace and a capital, digit or quote. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/)) {
    const s = piece.trim();
    if (s.length === 0) continue;
    const last = out.length - 1;
    if (last >= 0 && ABBREVIATION.test(out[last] as string)) out[last] = `${out[last] as string} ${s}`;
    else out.push(s);
  }
  return out;
}

/**
 * Words that frame a question rather than name its topic ("What is the *name* of…", "In what *year*…",
 * "How *many*…"): a passage that answers rarely repeats them, so they weigh less in the query.
 */
export const FRAME_TERMS: ReadonlySet<string> = new Set(
  'name named called call year years many much type kind term number date percent percentage century decade located'
    .split(' ').map((w) => toTerm(w)).filter((t): t is string => t !== null),
);

const NUMERIC_QUESTION = /\b(when|how (many|much|long|old|far|large|big|tall|often|high)|what (year|date|percentage|percent|number|time|century|decade|age)|which (year|century|decade))\b/i;

/** True when the question asks for a number or a date: sentences with digits are then likelier answers. */
export function asksForNumber(question: string): boolean {
  return NUMERIC_QUESTION.test(question);
}
