/**
 * Why an answerable question's answer holds no reference: which step of the answer method missed it. Tells whoever
 * works on realism next where the misses are (retrieval, ranking, the checks) without reading the questions.
 */
import { readFor, type AnswerInput, type ComposedAnswer } from '../src/sim/kb/answer';
import type { SiteKnowledge } from '../src/sim/kb/knowledge';

export const MISSES = ['not retrieved', 'other paragraph first', 'other sentence', 'refused: low relevance', 'refused: a check'] as const;
export type Miss = (typeof MISSES)[number];

export const MISS_LABELS: Readonly<Record<Miss, string>> = {
  'not retrieved': 'its paragraph not among the 6 retrieved',
  'other paragraph first': 'retrieved, but another paragraph\'s sentence ranked first',
  'other sentence': 'its paragraph ranked first, but not the sentences that hold the answer',
  'refused: low relevance': 'refused: the question covered too little (step 3)',
  'refused: a check': 'refused by a check of the evidence (step 5)',
};

/** The step that missed, for an answer to an answerable question that holds no reference; `paragraph` is the question's own. */
export function missOf(kb: SiteKnowledge, input: AnswerInput, answer: ComposedAnswer, refused: boolean, paragraph: string): Miss {
  if (refused) return answer.source.check ? 'refused: a check' : 'refused: low relevance';
  const { hits, ranked } = readFor(kb, input);
  if (!hits.some((h) => h.doc.content === paragraph)) return 'not retrieved';
  return ranked[0]?.hit.doc.content === paragraph ? 'other sentence' : 'other paragraph first';
}
