import { describe, expect, it } from 'vitest';
import { evaluateAssertion, failEvidence, gradeRow, gradedResult, feedbackFor, type Escalator } from '../../../src/grading';
import type { DatasetRow } from '../../../src/domain/dataset';
import type { RowResult } from '../../../src/domain/results';

/** The three-way `reference` verdict of an answer. */
function verdict(answer: string, expected: string, question = ''): 'pass' | 'fail' | 'uncertain' {
  const r = evaluateAssertion({ type: 'reference' }, { expected, question }, { answer });
  return r.pass ? 'pass' : r.uncertain ? 'uncertain' : 'fail';
}

describe('three-way reference: fail only on evidence', () => {
  it('fails a refusal', () => {
    expect(verdict("I'm sorry, but I couldn't find any information about that.", 'Hit the ball closer to the hole')).toBe('fail');
    expect(verdict('I don’t know the answer to that.', 'The Free plan includes 5 GB of storage.')).toBe('fail');
    expect(failEvidence('Unable to determine this from the help center.', ['30 days'])?.evidence).toBe('refusal');
  });

  it('fails a conflicting number, date or unit', () => {
    expect(verdict('Woody Herman was 28 years old when he founded his own orchestra in 1936.', '13|thirteen', 'How old was Woody Herman when he founded his own orchestra?')).toBe('fail');
    expect(verdict('Versions are kept for 90 days.', '30 days.')).toBe('fail');
    expect(verdict('The Free plan includes 10 GB of storage space.', 'The Free plan includes 5 GB of storage')).toBe('fail');
    expect(verdict('The war ended in 1918.', '1945', 'When did the war end?')).toBe('fail');
    expect(failEvidence('Europe covers approximately 6.8% of the earth.', ['8 %'])).toMatchObject({ evidence: 'conflicting-number' });
  });

  it('does not take a number that agrees, or one in another unit, as a conflict', () => {
    // The same value rounded, scaled, or inside the reference's range: no evidence of a wrong answer.
    expect(verdict('It sold for £50 million in 2007.', '£50m')).not.toBe('fail');
    expect(verdict('About 24,901 miles around.', '24,900 miles')).toBe('uncertain');
    expect(verdict('A year of his reign was 1141.', '1135-1154')).toBe('uncertain');
    // 40,075 km may be the reference's miles converted.
    expect(failEvidence('The circumference is 40,075 km.', ['24,900 miles'])).toBeUndefined();
  });

  it('fails another name where the reference is a name, and an answer with nothing in common', () => {
    expect(verdict('The record is held by Thierry Henry.', 'Mr Wright|Ian Wright', 'Who holds the record for Arsenal league goals?')).toBe('fail');
    expect(verdict('Berlin is the capital of Germany.', 'Paris')).toBe('fail');
    expect(verdict('Boris was a seal.', 'Spider|Spiders|Araneae', 'What type of animal was Boris?')).toBe('fail');
  });

  it('fails an answer that only restates the question', () => {
    expect(verdict("Richard Nixon's aides.", '(John) Ehrlichman|(Bob) Haldeman', "Name either of President Nixon's closest aides.")).toBe('fail');
  });

  it('is uncertain about a paraphrase or a partial answer, and passes what gives the reference', () => {
    expect(verdict("Stephen Hawking had ALS, also known as Lou Gehrig's disease.", 'Motor neuron disease', 'What illness did Stephen Hawking have?')).toBe('uncertain');
    // The limit of a lexical grader (docs/grading.md): a paraphrase without a word in common reads as another thing.
    expect(verdict('Otis Barton was a pioneer in exploring the deep sea.', 'Underwater|Under water|Undersea', 'Otis Barton was a pioneer in exploring where?')).toBe('fail');
    expect(verdict('The curious thing is that he ages backward.', 'He aged backwards')).toBe('uncertain');
    expect(verdict('The capital of France is Paris.', 'Paris')).toBe('pass');
    expect(verdict('It is Mississippi.', 'In Mississippi, as Thomas Lanier Williams. He took the name Tennessee after his father’s home state')).toBe('uncertain');
    // Spelling variants are not "nothing in common".
    expect(verdict('The symphony was composed by Dmitri Shostakovich.', 'Dimitri Shostakovitch')).not.toBe('fail');
    expect(verdict('Mr. Jinks, an orange cat.', 'Mr Jinx|Jinxy', 'Who was the adversary of Pixie and Dixie?')).toBe('uncertain');
    // A yes/no reference: the answer agrees in its own words.
    expect(verdict('Yes, he was afraid of the dark.', 'True', 'Thomas Edison was afraid of the dark?')).toBe('uncertain');
  });

  it('says why in the reason', () => {
    const fail = evaluateAssertion({ type: 'reference' }, { expected: 'Paris' }, { answer: 'Berlin.' });
    expect(fail).toMatchObject({ pass: false, score: 0 });
    expect(fail.uncertain).toBeUndefined();
    expect(fail.reason).toMatch(/^answer shares no content word with the reference/);
    const unsure = evaluateAssertion({ type: 'reference' }, { expected: 'Motor neuron disease' }, { answer: "Lou Gehrig's disease." });
    expect(unsure).toMatchObject({ pass: false, uncertain: true });
    expect(unsure.reason).toMatch(/^uncertain: answer has 1 of 3 content words of expected .*, but no evidence that it is wrong/);
  });
});

describe('gradeRow: three ways, escalation and feedback', () => {
  const row: DatasetRow = { id: 'q1', index: 0, line: 2, question: 'What illness did Stephen Hawking have?', expected: 'Motor neuron disease', metadata: {} } as DatasetRow;
  const answer = { answer: "ALS, also known as Lou Gehrig's disease." };
  const answered: RowResult = { id: 'q1', index: 0, line: 2, question: row.question, outcome: 'answered', requestId: 'req-1', sessionId: 'ses-1' };
  const none = (): never => { throw new Error('no external grader expected'); };

  it('leaves an uncertain row uncertain without a judge: no feedback, request and session kept', async () => {
    const grade = await gradeRow(row, answer, {}, none, async () => undefined);
    expect(grade).toMatchObject({ graded: true, pass: false, verdict: 'uncertain', escalation: { noJudge: true } });
    expect(feedbackFor(grade)).toBeUndefined();
    const result = gradedResult(answered, grade);
    expect(result).toMatchObject({ outcome: 'uncertain', requestId: 'req-1', sessionId: 'ses-1', decision: { verdict: 'uncertain', by: 'graders' } });
    expect(result.decision?.reason).toMatch(/no judge configured to settle it$/);
  });

  it('asks the judge the correctness question and lets its verdict settle the row', async () => {
    const asked: unknown[] = [];
    const judge: Escalator = async (request) => {
      asked.push(request);
      return { verdict: 'pass', reason: 'ALS is a motor neuron disease', tokens: 42, model: 'm', cached: false };
    };
    const grade = await gradeRow(row, answer, {}, none, judge);
    expect(asked).toEqual([{ kind: 'correctness', question: row.question, answer: answer.answer, references: ['Motor neuron disease'] }]);
    expect(grade).toMatchObject({ verdict: 'pass', pass: true });
    expect(feedbackFor(grade)).toBe('good');
    expect(gradedResult(answered, grade)).toMatchObject({ outcome: 'passed', decision: { verdict: 'pass', by: 'judge', reason: 'ALS is a motor neuron disease' } });
  });

  it('never asks the judge about a decided row, and keeps a row uncertain when the judge fails', async () => {
    let calls = 0;
    const counting: Escalator = async () => { calls += 1; return undefined; };
    await gradeRow({ ...row, expected: 'Paris' }, { answer: 'Berlin.' }, {}, none, counting);
    await gradeRow({ ...row, expected: 'Lou Gehrig' }, answer, {}, none, counting);
    expect(calls).toBe(0);
    const failing = await gradeRow(row, answer, {}, none, async () => { throw new Error('judge down'); });
    expect(failing).toMatchObject({ verdict: 'uncertain', escalation: { error: { message: 'judge down' } } });
    expect(gradedResult(answered, failing)).toMatchObject({ outcome: 'uncertain', decision: { judgeError: 'Error: judge down' } });
  });
});
