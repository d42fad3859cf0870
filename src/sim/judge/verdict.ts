/**
 * The simulator's judge: a deterministic TEST DOUBLE of an LLM judge, not a model. It reads the tagged sections of
 * the runner's judge prompt and decides by word overlap, so runs against the simulator have stable, explainable
 * verdicts:
 * - correctness: passes when the answer contains at least 60 % of the content words of some `<reference>`;
 * - rubric: read clause by clause (split at commas, semicolons, "and", "but"). A clause that asks for something
 *   ("mentions the 14-day window") wants its content words in the answer: the answer must hold at least 60 % of all of
 *   them. A negated clause ("does not promise refunds") is met unless the answer holds every one of its content words.
 *   Manner words ("polite", "concise" …) say how to answer, which word overlap cannot check: they are set aside, and
 *   the reason says so. Instruction words ("mentions", "says", "should" …) are set aside everywhere.
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

/** Words that say how to answer rather than what: no answer states them, so word overlap cannot check them. */
const MANNER_WORDS = new Set(
  ('polite politely courteous friendly respectful professional concise brief short clear helpful empathetic kind calm ' +
    'neutral formal informal tone rude').split(' ').map((w) => toTerm(w)).filter((t): t is string => t !== null),
);

/** A clause that forbids rather than asks (its words are stop words, so they are looked for in the raw text). */
const NEGATION = /\b(?:not|no|never|without|avoid|avoids|avoiding)\b|n't\b/iu;

/** Where a rubric's criteria part: each clause is one criterion (a comma or point inside a number is no break). */
const CLAUSE_SPLIT = /,(?!\d)|;|\.(?!\d)|\band\b|\bbut\b/iu;

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
  if (input.kind === 'rubric') return rubricVerdict(input.rubric, answer);
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

function rubricVerdict(rubric: string, answer: Set<string>): SimVerdict {
  const wanted: string[] = [];
  const forbidden: string[][] = [];
  const manner: string[] = [];
  for (const clause of rubric.split(CLAUSE_SPLIT)) {
    const words = unique(terms(clause)).filter((t) => !INSTRUCTION_WORDS.has(t));
    manner.push(...words.filter((t) => MANNER_WORDS.has(t)));
    const content = words.filter((t) => !MANNER_WORDS.has(t));
    if (content.length === 0) continue;
    if (NEGATION.test(clause)) forbidden.push(content);
    else wanted.push(...content);
  }
  if (wanted.length === 0 && forbidden.length === 0 && manner.length === 0) return { verdict: 'fail', reason: 'The rubric names nothing this judge can check.' };
  const notes: string[] = [];
  const broken = forbidden.filter((words) => words.every((t) => answer.has(t)));
  for (const words of broken) notes.push(`it says what the rubric rules out (${words.join(', ')})`);
  if (forbidden.length > broken.length) notes.push(`${forbidden.length - broken.length} of ${forbidden.length} ruled-out ${forbidden.length === 1 ? 'thing is' : 'things are'} absent`);
  if (manner.length > 0) notes.push(`manner (${unique(manner).join(', ')}) is not checked by this test double`);
  const asked = wanted.length > 0 ? decide(unique(wanted), answer, 'the rubric') : undefined;
  const pass = broken.length === 0 && (asked === undefined || asked.verdict === 'pass');
  const head = asked ? asked.reason.replace(/\.$/u, '') : 'The rubric asks for no content words';
  return { verdict: pass ? 'pass' : 'fail', reason: `${head}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}.` };
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
