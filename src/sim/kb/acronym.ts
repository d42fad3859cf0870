/**
 * Acronyms and what they stand for: a passage about "the Court of Justice of the European Union" answers a question
 * about the "CJEU", and "New York Times" one about the "NY Times". A reader takes them for one name; word matching
 * alone sees a word the passage lacks, or another word in its place.
 */
import { tokens } from './tokenize';

/** Two to six capitals, as written ("EU", "CJEU", "ISIL"); "US" and "UK" too. */
const ACRONYM = /^\p{Lu}{2,6}$/u;
/** Words an expansion may hold without an initial ("Court *of* Justice *of the* European Union"). */
const JOINING = new Set(['of', 'the', 'and', 'for', 'de', 'du', 'in', 'on', '&']);

export const isAcronym = (word: string): boolean => ACRONYM.test(word);

/**
 * Every run of words of `text` whose capitalized words' initials spell `acronym` ("European Coal and Steel Community"
 * for "ECSC"), as lists of its words.
 */
export function expansions(acronym: string, text: string): string[][] {
  const letters = acronym.toUpperCase();
  const words = tokens(text);
  const out: string[][] = [];
  for (let start = 0; start < words.length; start++) {
    if (!/^\p{Lu}/u.test(words[start] as string)) continue;
    let matched = 0;
    let end = start;
    while (end < words.length && matched < letters.length) {
      const word = words[end] as string;
      if (/^\p{Lu}/u.test(word) && word[0]?.toUpperCase() === letters[matched]) matched++;
      else if (!(JOINING.has(word.toLowerCase()) && end > start)) break;
      end++;
    }
    if (matched === letters.length) out.push(words.slice(start, end));
  }
  return out;
}

/**
 * The words of `question` that `text` holds as an acronym or as its expansion: "CJEU" when the text spells out the
 * Court of Justice of the European Union, and "European" and "Union" when the question does and the text says "EU".
 * An acronym the document spells out elsewhere counts when `text` has at least half of that expansion's capitalized
 * words ("the Court of Justice" for the CJEU, "the Islamic State" for ISIL): the passage names it for short.
 */
export function acronymWords(question: string, text: string, documentText = ''): Set<string> {
  const out = new Set<string>();
  const nearWords = tokens(text);
  const near = new Set(nearWords.map((w) => w.toLowerCase()));
  const mostlyNear = (expansion: readonly string[]): boolean => {
    const capitals = expansion.filter((w) => /^\p{Lu}/u.test(w));
    return capitals.filter((w) => near.has(w.toLowerCase())).length * 2 >= capitals.length;
  };
  for (const word of new Set(tokens(question))) {
    if (!isAcronym(word)) continue;
    if (expansions(word, text).length > 0 || expansions(word, documentText).some(mostlyNear)) out.add(word);
  }
  for (const word of new Set(nearWords)) {
    if (!isAcronym(word)) continue;
    for (const expansion of expansions(word, question)) for (const w of expansion) out.add(w);
  }
  return out;
}
