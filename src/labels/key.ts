/** How a label finds its rows again: the same site, question, references or rubric, and normalized answer. */
import { createHash } from 'node:crypto';
import { normalizeForEquals } from '../grading/normalize';

/** What a label is about, before normalization. */
export interface LabelSubject {
  siteId: string;
  question: string;
  references: readonly string[];
  rubric?: string;
  answer: string;
}

/**
 * The answer as labels compare it: case, whitespace and punctuation at the ends do not make a new answer, any other
 * change does (a person judged these exact words).
 */
export function normalizeAnswerForLabel(answer: string): string {
  return normalizeForEquals(answer);
}

/**
 * The label key: sha256 over a versioned JSON array of the normalized fields. References are sorted, so their order
 * in the dataset does not matter; the question is normalized like the answer.
 */
export function labelKey(subject: LabelSubject): string {
  const fields = [
    'label-v1',
    subject.siteId,
    normalizeForEquals(subject.question),
    [...subject.references].map(normalizeForEquals).sort(),
    subject.rubric ? normalizeForEquals(subject.rubric) : '',
    normalizeAnswerForLabel(subject.answer),
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
