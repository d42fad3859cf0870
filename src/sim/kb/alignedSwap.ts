/**
 * A question copied from the passage with one word changed: "the 19th century" where the passage says "the 20th
 * century", "every 3 months" where it says "each six months", "an internal force" where it says "an external force".
 * The changed word sits where the passage has another one, with the same word on at least one side, and the two are
 * different numbers of one kind (counts, ordinals, decades) or opposites. A reader that quotes the passage notices that
 * it answers another question; paraphrases of an answerable question seldom change a number or flip a word in place.
 * Chosen on the development file, both halves (CHANGELOG.md's history of the simulator's realism work).
 */
import { oppositesOf } from './antonyms';
import { foldedWords } from './tokenize';

/** Number words with their values. "one" is left out: it is as often a pronoun ("the one with …"). */
const CARDINALS: Readonly<Record<string, number>> = {
  two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100, hundreds: 100,
  thousand: 1000, thousands: 1000, million: 1e6, millions: 1e6, billion: 1e9, billions: 1e9, dozen: 12, dozens: 12,
};
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20,
};

type NumberKind = 'cardinal' | 'ordinal' | 'decade';

/** A word's number and its kind ("1990s" a decade, "20th" and "twentieth" ordinals, "6" and "six" counts). */
export function numberOf(word: string): { value: number; kind: NumberKind } | undefined {
  const digits = /^(\d+(?:[.,]\d+)?)(st|nd|rd|th|s)?$/.exec(word);
  if (digits) {
    const value = Number((digits[1] as string).replace(',', ''));
    const suffix = digits[2];
    return { value, kind: suffix === 's' ? 'decade' : suffix ? 'ordinal' : 'cardinal' };
  }
  if (Object.hasOwn(CARDINALS, word)) return { value: CARDINALS[word] as number, kind: 'cardinal' };
  if (Object.hasOwn(ORDINALS, word)) return { value: ORDINALS[word] as number, kind: 'ordinal' };
  return undefined;
}

export interface AlignedSwap {
  kind: 'number' | 'opposite';
  /** The question's word and the passage's word in its place. */
  asked: string;
  stated: string;
}

function contrast(asked: string, stated: string): AlignedSwap['kind'] | undefined {
  const a = numberOf(asked);
  const b = numberOf(stated);
  if (a && b) return a.kind === b.kind && a.value !== b.value ? 'number' : undefined;
  return oppositesOf(asked)?.has(stated) ? 'opposite' : undefined;
}

/** The first word of the question that the sentence replaces, in place, by another number of its kind or an opposite. */
export function alignedSwap(question: string, sentence: string): AlignedSwap | undefined {
  const q = foldedWords(question);
  const s = foldedWords(sentence);
  const inQuestion = new Set(q);
  const inSentence = new Set(s);
  for (let i = 0; i < q.length; i++) {
    const asked = q[i] as string;
    if (inSentence.has(asked)) continue;
    for (let j = 0; j < s.length; j++) {
      const stated = s[j] as string;
      if (inQuestion.has(stated)) continue;
      const before = i > 0 && j > 0 && q[i - 1] === s[j - 1];
      const after = i + 1 < q.length && j + 1 < s.length && q[i + 1] === s[j + 1];
      if (!before && !after) continue;
      const kind = contrast(asked, stated);
      if (kind) return { kind, asked, stated };
    }
  }
  return undefined;
}
