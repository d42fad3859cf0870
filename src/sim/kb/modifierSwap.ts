/**
 * A swapped modifier: the question asks about "Japanese printing", the passage speaks of "Chinese printing" and
 * never says "Japanese". Questions a knowledge base does not answer are often made this way from a passage that
 * does answer a neighbouring question; a reader that checks its evidence notices.
 */
import { isAcronym } from './acronym';
import { numberOf } from './alignedSwap';
import { sameCountry, sameWord } from './spelling';
import { tokens, toTerm } from './tokenize';

const ORDINAL = /^(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(st|nd|rd|th))$/i;

/**
 * Only modifiers of one kind are compared: names ("Spanish"/"Scottish"), ordinals ("second"/"third"), numbers. Two
 * lower-case words before the same noun are too often a paraphrase.
 */
function kindOf(word: string, first: boolean): 'ordinal' | 'number' | 'name' | undefined {
  if (ORDINAL.test(word)) return 'ordinal';
  if (/^\d/.test(word)) return 'number';
  if (!first && /^\p{Lu}/u.test(word)) return 'name';
  return undefined;
}

interface Word {
  raw: string;
  term: string | null;
  kind: ReturnType<typeof kindOf>;
}

const words = (text: string): Word[] => tokens(text).map((raw, i) => ({ raw, term: toTerm(raw), kind: kindOf(raw, i === 0) }));

/** "3rd" and "third": one ordinal in two spellings. */
function sameNumber(a: string, b: string): boolean {
  const x = numberOf(a.toLowerCase());
  return x !== undefined && x.value === numberOf(b.toLowerCase())?.value;
}

/** "York" of "NY", "Justice" of "CJEU": a capitalized word whose initial is a letter of the acronym may be part of its expansion. */
const partOfAcronym = (word: string, acronym: string): boolean => isAcronym(acronym) && /^\p{Lu}/u.test(word) && acronym.includes(word[0] as string);

export interface ModifierSwap {
  /** The question's words ("Japanese printing") and the evidence's ("Chinese printing"). */
  asked: string;
  stated: string;
}

/**
 * The first pair of adjacent words "a b" of the question whose `b` the sentence has right after another word `c`
 * of a's kind, where the sentence never has `a` and `c` is not in the question nor another spelling of `a`.
 */
export function swappedModifier(question: string, sentence: string): ModifierSwap | undefined {
  const q = words(question);
  const s = words(sentence);
  const asked = new Set(q.map((w) => w.term));
  const stated = new Set(s.map((w) => w.term));
  for (let i = 0; i + 1 < q.length; i++) {
    const a = q[i] as Word;
    const b = q[i + 1] as Word;
    if (!a.term || !b.term || a.kind === undefined || a.term === b.term || stated.has(a.term) || !stated.has(b.term)) continue;
    for (let j = 1; j < s.length; j++) {
      const c = s[j - 1] as Word;
      if (s[j]?.term !== b.term || !c.term || c.kind !== a.kind || asked.has(c.term) || sameWord(a.term, c.term)) continue;
      if (sameNumber(a.raw, c.raw) || sameCountry(a.raw.toLowerCase(), c.raw.toLowerCase()) || partOfAcronym(c.raw, a.raw)) continue;
      return { asked: `${a.raw} ${b.raw}`, stated: `${c.raw} ${s[j]?.raw ?? ''}` };
    }
  }
  return undefined;
}
