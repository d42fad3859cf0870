/**
 * Whether the passage an answer would rest on actually answers the question, beyond sharing its words.
 * A question the knowledge base does not answer often looks like one it does: same topic, same words,
 * but it asks about what did *not* happen, about another year or figure, about the opposite ("smallest" for
 * "largest") or about another thing of the same name ("Spanish Parliament" for "Scottish Parliament"). A reader
 * that checks its evidence refuses those; word coverage alone cannot tell them apart.
 */
import { alignedSwap } from './alignedSwap';
import { statedOpposite } from './antonyms';
import { swappedModifier } from './modifierSwap';

/** Negation in a question ("Which king did not…", "…never…", "…isn't…"). */
export const QUESTION_NEGATION = /\b(not|never|cannot|no longer)\b|n't\b/i;
/** Any negation in the evidence sentence: it may then state the negative fact the question asks about. */
export const EVIDENCE_NEGATION = /\b(not|never|no|none|neither|nor|without|cannot|unable|fail(s|ed)?|lack(s|ed)?|refus(e|es|ed|al))\b|n't\b/i;
/** Digit runs: "1,000" and "1000" differ, "28" and "1995" of "November 28, 1995" are two. */
const NUMBER = /\d+/g;
/**
 * The question's numbers that the passage must contain: two digits or more (smaller ones are usually
 * spelled out in prose), not ordinals ("17th century" is rarely written with the digits).
 */
const CHECKED_NUMBER = /(?<!\d)\d{2,}(?!\d|st\b|nd\b|rd\b|th\b)/gi;

export const MismatchKind = { negation: 'negation', number: 'number', opposite: 'opposite', modifier: 'modifier', name: 'name', prefixed: 'prefixed', swapped: 'swapped' } as const;
export type MismatchKind = (typeof MismatchKind)[keyof typeof MismatchKind];

export interface Mismatch {
  kind: MismatchKind;
  /** Why the evidence does not answer, for `confidence_reason`. */
  reason: string;
}

/**
 * The first reason the evidence does not answer the question, or undefined when it may: the question
 * is negated and the best sentence states no negation; the question names a number (a year, a
 * count) that its document does not contain; the sentence states the opposite of a word of the question; it
 * puts another modifier before the question's noun; or it has another number or the opposite word in the place of
 * one of the question's ("the 19th century" asked, "the 20th century" stated).
 */
export function evidenceMismatch(question: string, sentence: string, documentText: string): Mismatch | undefined {
  if (QUESTION_NEGATION.test(question) && !EVIDENCE_NEGATION.test(sentence)) {
    return { kind: MismatchKind.negation, reason: 'the question asks about something that did not happen, and the best passage says nothing of the kind' };
  }
  const numbers = new Set(documentText.match(NUMBER) ?? []);
  const missing = (question.match(CHECKED_NUMBER) ?? []).find((n) => !numbers.has(n));
  if (missing !== undefined) return { kind: MismatchKind.number, reason: `the best passage does not mention ${missing}` };
  const opposite = statedOpposite(question, sentence, documentText);
  if (opposite) return { kind: MismatchKind.opposite, reason: `the question asks about "${opposite.asked}", the best passage says "${opposite.stated}"` };
  const swap = swappedModifier(question, sentence);
  if (swap) return { kind: MismatchKind.modifier, reason: `the question asks about "${swap.asked}", the best passage about "${swap.stated}"` };
  const changed = alignedSwap(question, sentence);
  if (changed) return { kind: MismatchKind.swapped, reason: `the question says "${changed.asked}" where the best passage says "${changed.stated}"` };
  return undefined;
}
