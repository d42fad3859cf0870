/**
 * Case and Unicode folding, the first step of every comparison of English text (the graders' and the simulator's).
 * Pure and deterministic (no Node APIs, no locale-dependent calls): the graders run it in the workflow sandbox.
 */

/** Unicode compatibility normalization plus locale-independent lower-casing ("Ｆｕｌｌ" → "full", "ﬁ" → "fi"). */
export function foldCase(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Accents of Latin, Greek and Cyrillic letters removed, the text recomposed ("René" → "Rene"). Only the combining
 * diacritics block goes: marks that make another letter of their script stay (kana voicing, "が" is not "か").
 */
export function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/gu, '').normalize('NFC');
}

/**
 * A word lower-cased with every combining mark removed and left decomposed: coarser than {@link stripAccents} ("が"
 * → "か"), for matching words typed without their accents, as the simulator's questions often are ("Rene" for
 * "René"). Not for text shown to anyone.
 */
export function foldMarks(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}
