/**
 * Stemming of English words, in two strengths built on one plural step ({@link singular}):
 *
 * - {@link lightStem}, the `reference` grader's: plurals and a final "e" only. Its agreement with human judges
 *   (docs/grading.md) was measured with it.
 * - {@link suffixStem}, the simulator's: also "-ation", "-ion", "-ing", "-ed" and "-ate", so that a question's
 *   "sharing" finds a passage's "shared". The simulator's answers, and so the demo's figures, depend on it.
 *
 * Two strengths stay because the grader must not merge words that differ in what they answer, and the fuller stem
 * merges many: "united" and "unit" both become "unit", "station" and "state" both "stat", "informed" and
 * "information" both "inform". An answer "a unit" would then share its word with the reference "United", and "the
 * state" with "the station"; the light stem keeps each pair apart (`united`/`unit`, `station`/`stat`). A retrieval
 * engine, on the other hand, wants those merges: a passage that talks of "information" answers "how am I informed".
 *
 * Both work on one lower-cased word (see `fold.ts`) and are pure and deterministic: the grader's runs in the
 * workflow sandbox.
 */

/** Options of {@link singular}: the two places where the simulator's plural step differs from the grader's. */
export interface SingularOptions {
  /**
   * The shortest word whose "-ies" becomes "-y". At 5 "ties" keeps its "e" ("tie", as "tie" itself) and "parties"
   * becomes "party"; at 4 "ties" becomes "ty".
   * @default 5
   */
  minIesLength?: number;
  /** Whether "-sses" becomes "-ss" ("classes" → "class") rather than losing only its "s" ("classe"). @default false */
  sses?: boolean;
}

/**
 * The plural step of both stemmers (after Harman's S-stemmer): "-ies" → "-y" ("parties" → "party"); otherwise a
 * final "s" goes unless the word ends in "ss", "us" or "is" ("class", "status", "analysis" are singular).
 */
export function singular(word: string, options: SingularOptions = {}): string {
  const { minIesLength = 5, sses = false } = options;
  if (word.length >= minIesLength && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (sses && word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/u.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The grader's light stem: {@link singular}, then a final "e" goes, so "boxes"/"box" and "horses"/"horse" agree.
 * Words of three letters or fewer and anything with a digit are left alone ("1960s" is normalized elsewhere).
 */
export function lightStem(word: string): string {
  if (word.length <= 3 || /\d/u.test(word)) return word;
  const w = singular(word);
  return w.endsWith('e') && w.length > 3 ? w.slice(0, -1) : w;
}

/** Porter's measure: the number of vowel-consonant sequences in a stem. */
function measure(stem: string): number {
  return (stem.replace(/[^aeiouy]+/gu, 'C').replace(/[aeiouy]+/gu, 'V').replace(/^C/u, '').match(/VC/gu) ?? []).length;
}

/** The simulator's plural step: "ties" → "ty", "classes" → "class" (see {@link SingularOptions}). */
const SUFFIX_STEM_PLURALS: SingularOptions = { minIesLength: 4, sses: true };

/**
 * The simulator's fuller suffix stem, a light Porter-like one for help-center text: after {@link singular},
 * "-ation", "-ion", "-ing" and "-ed" go, then a final "e" or "y", then "-at" when enough stem is left, so "share",
 * "shared" and "sharing" meet. Words of three letters or fewer and words that start with a digit are left alone.
 */
export function suffixStem(word: string): string {
  if (word.length <= 3 || /^\d/u.test(word)) return word;
  let w = singular(word, SUFFIX_STEM_PLURALS);
  if (w.length > 6 && w.endsWith('ation')) w = w.slice(0, -3);
  else if (w.length > 6 && w.endsWith('ion')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && /[ey]$/u.test(w)) w = w.slice(0, -1);
  // "-ation", "-ated", "-ating", "-ate" meet at "-at"; it goes when enough stem is left (Porter's measure > 1),
  // so that "information"/"inform" meet while "location"/"located" keep "locat".
  if (w.endsWith('at') && measure(w.slice(0, -2)) > 1) w = w.slice(0, -2);
  return w;
}
