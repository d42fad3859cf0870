/**
 * Loads an EVOUNA judgment file (a JSON array; TriviaQA's is EVOUNA/TQ.json in the public repository
 * wangcunxiang/QA-Eval): per question, `golden_answer` with `/`-separated references, and per QA system
 * an `answer_<system>` with a human `judge_<system>` (true/false).
 */
import { readFileSync } from 'node:fs';
import { formatReferences } from '../src/grading';

/** The QA systems EVOUNA judged, in its column order. */
export const SYSTEMS = ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing'] as const;
export type System = (typeof SYSTEMS)[number];

/** One judged answer. */
export interface JudgedAnswer {
  /** 0-based position of the question in the file. */
  question: number;
  /** The question's text. */
  text: string;
  system: System;
  /** The references as one `expected` value (`|`-separated, as a dataset row holds them). */
  expected: string;
  answer: string;
  /** The human judgment. */
  correct: boolean;
}

/** What was left out, and why. */
export interface Excluded {
  /** Questions the annotators flagged `improper` (their reference is wrong or the question ambiguous). */
  improper: number;
  /** Answers without a true/false judgment. */
  unjudged: number;
}

/** A file that is not what the bench expects; the message names the file, the entry and the field. */
export class AgreementDataError extends Error {
  override readonly name = 'AgreementDataError';
}

/** Reads every judged answer of the file. */
export function loadJudgedAnswers(file: string): { answers: JudgedAnswer[]; questions: number; excluded: Excluded } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AgreementDataError(`${file}: cannot read JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(data)) throw new AgreementDataError(`${file}: expected a JSON array of questions`);
  const answers: JudgedAnswer[] = [];
  const excluded: Excluded = { improper: 0, unjudged: 0 };
  data.forEach((entry: unknown, question) => {
    const at = `${file}: entry ${question}`;
    if (typeof entry !== 'object' || entry === null) throw new AgreementDataError(`${at}: not an object`);
    const fields = entry as Record<string, unknown>;
    const golden = fields.golden_answer;
    if (typeof golden !== 'string' || golden.trim() === '') throw new AgreementDataError(`${at}: \`golden_answer\` must be non-empty text`);
    if (fields.improper === true) {
      excluded.improper += 1;
      return;
    }
    const expected = formatReferences(golden.split('/'));
    for (const system of SYSTEMS) {
      const answer = fields[`answer_${system}`];
      const judge = fields[`judge_${system}`];
      if (typeof answer !== 'string') throw new AgreementDataError(`${at}: \`answer_${system}\` must be text`);
      if (typeof judge !== 'boolean') {
        excluded.unjudged += 1;
        continue;
      }
      answers.push({ question, text: String(fields.question ?? ''), system, expected, answer, correct: judge });
    }
  });
  return { answers, questions: data.length, excluded };
}

/** Whitespace-separated words of the raw answer: "long" answers have more than five. */
export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((w) => w.length > 0).length;
}
