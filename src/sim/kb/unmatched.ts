/**
 * The question's key words that the passage an answer would rest on does not hold. An unanswerable question is
 * often an answerable one with one word changed: another name ("What did Japan lift in March 1974?" where the passage
 * says the Arab producers did), or the word's negation ("unofficial" for "official"). Which of these refuse was chosen
 * on half of the development file (the research is summed up in CHANGELOG.md's history, the scripts are in git).
 */
import { acronymWords } from './acronym';
import { MismatchKind, type Mismatch } from './answerable';
import type { SiteKnowledge } from './knowledge';
import { documentSentences, type RankedSentence } from './rank';
import { editDistance, sameCountry } from './spelling';
import { FRAME_TERMS, terms, tokens, toTerm } from './tokenize';

export interface Unmatched {
  term: string;
  raw: string;
  idf: number;
  /** A name or a number: a capitalized word (not the question's first) or one with a digit, not a form of a word nearby. */
  name: boolean;
  /** Found elsewhere in the best sentence's document. */
  inDocument: boolean;
  /** Used by some document of the site. */
  known: boolean;
  /**
   * The word without a negating prefix ("official" of "unofficial") is in the best sentence's document; or the word
   * is such a prefix written apart ("non" of "non-imperialism") and the passage does not negate the word after it.
   */
  negatedInDocument: boolean;
}

/**
 * A name this rare (IDF; a term in about 1 of 20 documents or fewer) that the document has, but not near the best
 * sentence, means the passage is about something else. Commoner names ("French", "British") are too often paraphrased
 * or implied by the passage.
 */
const RARE_NAME_IDF = 3;

const NEGATING_PREFIX = /^(un|non|in|im|il|ir|dis|anti|semi|mis|counter|pseudo)-?(.{4,})$/i;
/** The same prefixes written apart ("non-imperialism" is two words to the tokenizer). */
const PREFIX_WORDS: ReadonlySet<string> = new Set(['non', 'anti', 'semi', 'pseudo', 'counter']);

/** "British" and "Britain", "Scotland" and "Scottish", "Russian" and "Russia", "Khublai" and "Kublai", "AppleTalk" and "Apple": one name. */
function sameName(a: string, b: string): boolean {
  if (editDistance(a, b) <= 1 || (a.length >= 4 && b.startsWith(a)) || sameCountry(a, b)) return true;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= 4 && a.length - i <= 4 && b.length - i <= 4;
}

function negated(raw: string, document: ReadonlySet<string>): boolean {
  const rest = NEGATING_PREFIX.exec(raw)?.[2];
  if (rest === undefined) return false;
  const term = toTerm(rest);
  return term !== null && document.has(term);
}

/**
 * The question's terms (framing words and those in `skip` aside) missing from the best sentence, the sentences
 * next to it and its document's title.
 */
export function unmatchedTerms(kb: SiteKnowledge, question: string, best: RankedSentence, skip: ReadonlySet<string>, window = 1): Unmatched[] {
  const list = documentSentences(best.hit.doc, null);
  const nearText = [best.hit.doc.title, best.text, ...list.slice(Math.max(0, best.index - window), best.index + window + 1).map((s) => s.text)];
  const near = new Set(nearText.flatMap((t) => terms(t)));
  const nearWords = nearText.flatMap((t) => tokens(t).map((w) => w.toLowerCase()));
  const document = new Set(list.flatMap((s) => s.terms));
  const out: Unmatched[] = [];
  const seen = new Set<string>();
  const words = tokens(question);
  const joinedNear = nearText.join(' ');
  const lowerNear = joinedNear.toLowerCase();
  // "CJEU" asked, "Court of Justice of the European Union" near (or the other way round): the passage names it.
  const named = acronymWords(question, joinedNear, best.hit.doc.content ?? best.hit.doc.answer ?? '');
  words.forEach((raw, i) => {
    const term = toTerm(raw);
    if (term === null || seen.has(term) || FRAME_TERMS.has(term) || skip.has(term) || near.has(term) || named.has(raw)) return;
    seen.add(term);
    const name = /\d/.test(raw) || (i > 0 && /^\p{Lu}/u.test(raw) && !nearWords.some((w) => sameName(raw.toLowerCase(), w)));
    out.push({ term, raw, idf: kb.idf(term), name, inDocument: document.has(term), known: kb.knows(term), negatedInDocument: negated(raw, document) || apartPrefix(term, words[i + 1], lowerNear) });
  });
  return out;
}

/** A negating prefix written apart ("non" of "non-elected") unless the passage negates the next word too ("not elected"). */
function apartPrefix(term: string, next: string | undefined, near: string): boolean {
  if (!PREFIX_WORDS.has(term) || next === undefined) return false;
  const base = next.toLowerCase().slice(0, Math.max(4, next.length - 4)).replace(/[^\p{L}\p{N}]/gu, '');
  return !new RegExp(`\\b(not|non|un|in|anti|semi)[\\s-]*${base}`, 'u').test(near);
}

/**
 * Why the passage does not answer, judged by the question's words it lacks: a rare name the document has
 * elsewhere (the question is about another part of it), a word whose un-negated form the document uses, or a
 * negating prefix written apart ("non-imperialism") that the passage does not use.
 */
export function missingTermMismatch(unmatched: readonly Unmatched[]): Mismatch | undefined {
  const name = unmatched.find((u) => u.name && u.inDocument && u.idf >= RARE_NAME_IDF);
  if (name) return { kind: MismatchKind.name, reason: `the question names "${name.raw}", which the article mentions elsewhere but not in the passage that matches the rest of the question` };
  const prefixed = unmatched.find((u) => u.negatedInDocument);
  if (prefixed) return { kind: MismatchKind.prefixed, reason: `the question asks about "${prefixed.raw}", the passage only about its opposite` };
  return undefined;
}
