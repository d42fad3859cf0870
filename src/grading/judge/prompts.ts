/**
 * The judge's prompts: versioned constants. The version is part of the cache key, so any change to a prompt's
 * text must bump its version, or cached verdicts of the old prompt would be served for the new one.
 * Pure: no Node APIs.
 */
import { JudgeKind, type JudgeRequest } from './types';

/** A chat message as the Chat Completions API takes it. */
export interface JudgeMessage {
  role: 'system' | 'user';
  content: string;
}

const REPLY_FORMAT =
  'Reply with one JSON object and nothing else: {"verdict": "pass" or "fail", "reason": "<one or two sentences>"}.';

/** The prompt of each kind of judgement. Bump `version` whenever `system` or the user template changes. */
export const JUDGE_PROMPTS = {
  [JudgeKind.rubric]: {
    version: 'rubric/v1',
    system: [
      "You grade answers given by a website's support assistant.",
      'Decide whether the answer meets every criterion of the rubric. The question is context; judge the answer only.',
      'An answer that meets only some criteria, or that refuses, fails.',
      REPLY_FORMAT,
    ].join(' '),
  },
  [JudgeKind.correctness]: {
    version: 'correctness/v1',
    system: [
      "You grade answers given by a website's support assistant against reference answers.",
      'The answer passes when it is consistent with a reference: it states the facts the reference gives for this question',
      'and contradicts none of them. Other wording and extra correct detail are fine. A missing key fact, a contradiction,',
      'or a refusal where the reference answers, fails. With several references, consistency with any one is enough.',
      'When the reference says the answer is not known, the answer passes only if it also says it does not know.',
      REPLY_FORMAT,
    ].join(' '),
  },
} as const satisfies Record<JudgeKind, { version: string; system: string }>;

/** The version of the prompt a request is judged with. */
export function promptVersion(kind: JudgeKind): string {
  return JUDGE_PROMPTS[kind].version;
}

/** The messages sent for a request: the kind's system prompt, then the inputs in tagged sections. */
export function buildMessages(request: JudgeRequest): JudgeMessage[] {
  const sections = [tag('question', request.question)];
  if (request.kind === JudgeKind.rubric) sections.push(tag('rubric', request.rubric));
  else request.references.forEach((ref) => sections.push(tag('reference', ref)));
  sections.push(tag('answer', request.answer));
  return [
    { role: 'system', content: JUDGE_PROMPTS[request.kind].system },
    { role: 'user', content: sections.join('\n\n') },
  ];
}

/** The section tags; text that contains one is defused so an answer cannot close its section and add its own. */
export const SECTION_TAGS = ['question', 'rubric', 'reference', 'answer'] as const;
const TAG_PATTERN = new RegExp(`<(/?)(${SECTION_TAGS.join('|')})\\b`, 'giu');

function tag(name: (typeof SECTION_TAGS)[number], text: string): string {
  return `<${name}>\n${text.replace(TAG_PATTERN, '‹$1$2')}\n</${name}>`;
}
