/**
 * What kind of answer a question asks for, and whether a sentence offers one: a reader picks the sentence that
 * holds a candidate answer (a number for "how many", a name for "who", a place for "where"), not merely the one
 * that repeats the question best. A candidate must be something the question does not already say.
 */
import { terms } from './tokenize';

export const AnswerShape = { number: 'number', name: 'name', place: 'place', other: 'other' } as const;
export type AnswerShape = (typeof AnswerShape)[keyof typeof AnswerShape];

const NUMBER_QUESTION =
  /\b(when|how (many|much|long|old|far|large|big|tall|often|high|fast|heavy|deep|wide)|what (year|date|percentage|percent|number|time|century|decade|age|amount|size|population)|which (year|century|decade)|in what (year|century|decade))\b/i;
const PLACE_QUESTION = /\b(where|what (country|city|town|state|region|county|province|area|continent|river|island|place|location)|which (country|city|town|state|region|county|province|area|continent|river|island|place))\b/i;
const NAME_QUESTION = /\b(who|whom|whose|what (is the name|was the name|name)|which (person|king|emperor|president|company|organization|group|team|university|school|party))\b/i;

/**
 * The word that names the kind of answer ("country" in "In what country is X located?"): the passage that answers
 * names the country instead, so the word weighs as little as the question's other framing words.
 */
const TYPE_WORD = /\b(?:what|which)\s+([\p{L}-]+)/iu;

export function answerTypeTerm(question: string): string | undefined {
  const shape = answerShape(question);
  if (shape === AnswerShape.other) return undefined;
  const word = TYPE_WORD.exec(question)?.[1];
  return word === undefined ? undefined : terms(word)[0];
}

/** The kind of answer the question asks for. */
export function answerShape(question: string): AnswerShape {
  if (NUMBER_QUESTION.test(question)) return AnswerShape.number;
  if (PLACE_QUESTION.test(question)) return AnswerShape.place;
  if (NAME_QUESTION.test(question)) return AnswerShape.name;
  return AnswerShape.other;
}

const NUMBER_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half)\b/i;
/** A capitalized word that is not the sentence's first word: a name, a place, a title. */
const CAPITALIZED = /(?<=\S\s+)\p{Lu}[\p{L}'’-]+/gu;

/** Whether the sentence holds a candidate answer of the shape, beyond the words of the question. */
export function offersShape(sentence: string, shape: AnswerShape, question: ReadonlySet<string>): boolean {
  switch (shape) {
    case AnswerShape.number:
      return (sentence.match(/\d+/g) ?? []).some((n) => !question.has(n)) || NUMBER_WORDS.test(sentence);
    case AnswerShape.place:
    case AnswerShape.name:
      return (sentence.match(CAPITALIZED) ?? []).some((w) => terms(w).some((t) => !question.has(t)));
    case AnswerShape.other:
      return false;
  }
}
