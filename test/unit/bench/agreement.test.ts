import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgreementDataError, loadJudgedAnswers, wordCount } from '../../../bench/agreementData';
import { agreementGraders, GRADER_NAMES } from '../../../bench/agreementGraders';

/** A synthetic file in EVOUNA's shape (not EVOUNA data). */
const entry = (golden: string, answers: Record<string, [string, boolean | string]>, improper = false): Record<string, unknown> => {
  const fields: Record<string, unknown> = { question: 'q?', golden_answer: golden, improper };
  for (const system of ['fid', 'gpt35', 'chatgpt', 'gpt4', 'newbing']) {
    const [answer, judge] = answers[system] ?? ['', 'nan'];
    fields[`answer_${system}`] = answer;
    fields[`judge_${system}`] = judge;
  }
  return fields;
};

async function file(content: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'agreement-')), 'TQ.json');
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('agreement bench data', () => {
  it('turns `/`-separated golden answers into `|` references and skips improper questions and unjudged answers', async () => {
    const path = await file([
      entry('Paris/City of Paris/a|b', { fid: ['Paris', true], gpt4: ['It is Lyon, I think.', false] }),
      entry('x', { fid: ['x', true] }, true),
    ]);
    const { answers, questions, excluded } = loadJudgedAnswers(path);
    expect(questions).toBe(2);
    expect(excluded).toEqual({ improper: 1, unjudged: 3 });
    expect(answers.map((a) => [a.system, a.expected, a.correct])).toEqual([
      ['fid', 'Paris|City of Paris|a\\|b', true],
      ['gpt4', 'Paris|City of Paris|a\\|b', false],
    ]);
  });

  it('names the file and entry of bad input', async () => {
    expect(() => loadJudgedAnswers('/nonexistent/TQ.json')).toThrow(AgreementDataError);
    expect(() => loadJudgedAnswers('/nonexistent/TQ.json')).toThrow(/^\/nonexistent\/TQ\.json: cannot read JSON/);
    const path = await file([entry('', {})]);
    expect(() => loadJudgedAnswers(path)).toThrow(`${path}: entry 0: \`golden_answer\` must be non-empty text`);
    const object = await file('{"question": "q?"}');
    expect(() => loadJudgedAnswers(object)).toThrow(`${object}: expected a JSON array of questions`);
  });

  it('grades with the runner graders; `reference` passes what normalized containment passes', () => {
    const graders = new Map(agreementGraders().map((g) => [g.name, g]));
    const contains = graders.get(GRADER_NAMES.contains);
    const reference = graders.get(GRADER_NAMES.reference);
    const expected = 'David Seville|Ross Bagdasarian';
    const answer = 'The Chipmunks were created by Ross Bagdasarian Sr., also known as "David Seville".';
    expect(contains?.pass(answer, expected)).toBe(true);
    expect(reference?.pass(answer, expected)).toBe(true);
    expect(graders.get('f1, first reference (old default)')?.pass(answer, expected)).toBe(false);
    expect(wordCount(' a  b\nc ')).toBe(3);
  });
});
