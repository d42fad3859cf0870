/**
 * The simulator's judge: a deterministic TEST DOUBLE of an LLM judge, not a model. It reads the tagged sections of
 * the runner's judge prompt and decides by word overlap, so runs against the simulator have stable, explainable
 * verdicts:
 * - correctness: passes when the answer contains at least 60 % of the content words of some `<reference>`;
 * - rubric: passes when the answer contains at least 60 % of the rubric's content words, once instruction words
 *   ("mentions", "says", "should" …) are set aside.
 * Content words are the knowledge base's index terms (stop words dropped, light stemming, a few synonyms).
 */
import { terms, toTerm } from '../kb/tokenize';

/** Share of the criteria's content words the answer must contain. */
export const SIM_JUDGE_PASS_SHARE = 0.6;

/** Words that say what to check rather than what the answer should hold. */
const INSTRUCTION_WORDS = new Set(
  ('answer answers mention mentions mentioned says say said state states stated include includes included explain explains ' +
    'tell tells give gives provide provides describe describes refer refers should correct correctly clearly user response ' +
    'assistant criterion criteria').split(' ').map((w) => toTerm(w)).filter((t): t is string => t !== null),
);

/** The inputs of a judge prompt, as the runner tags them. */
export type SimJudgeInput =
  | { kind: 'rubric'; question: string; answer: string; rubric: string }
  | { kind: 'correctness'; question: string; answer: string; references: string[] };

export interface SimVerdict {
  verdict: 'pass' | 'fail';
  reason: string;
}

export function simJudge(input: SimJudgeInput): SimVerdict {
  const answer = new Set(terms(input.answer));
  if (input.kind === 'rubric') {
    const wanted = unique(terms(input.rubric)).filter((t) => !INSTRUCTION_WORDS.has(t));
    if (wanted.length === 0) return { verdict: 'fail', reason: 'The rubric names nothing this judge can check.' };
    return decide(wanted, answer, 'the rubric');
  }
  let best: SimVerdict | undefined;
  let bestShare = -1;
  input.references.forEach((reference, i) => {
    const wanted = unique(terms(reference));
    const share = wanted.length === 0 ? 0 : wanted.filter((t) => answer.has(t)).length / wanted.length;
    if (share > bestShare) {
      bestShare = share;
      best = decide(wanted, answer, input.references.length > 1 ? `reference ${i + 1}` : 'the reference');
    }
  });
  return best ?? { verdict: 'fail', reason: 'No reference to compare with.' };
}

function decide(wanted: string[], answer: Set<string>, what: string): SimVerdict {
  if (wanted.length === 0) return { verdict: 'fail', reason: `${what} has no content words to compare with.` };
  const missing = wanted.filter((t) => !answer.has(t));
  const found = wanted.length - missing.length;
  const pass = found / wanted.length >= SIM_JUDGE_PASS_SHARE;
  const gap = missing.length > 0 ? `; missing: ${missing.slice(0, 5).join(', ')}` : '';
  return { verdict: pass ? 'pass' : 'fail', reason: `The answer has ${found} of ${wanted.length} content words of ${what}${gap}.` };
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
