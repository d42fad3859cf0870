/**
 * From a judge assertion to a judge request, and from the verdict back to an assertion result. Pure and
 * deterministic: the workflow builds requests with it, `sitechat grade` too.
 */
import type { DatasetRow } from '../../domain/dataset';
import { parseReferences } from '../references';
import type { AnswerForGrading, AssertionResult, JudgeAssertionSpec } from '../../domain/grade';
import { JudgeKind, type JudgeOutcome, type JudgeRequest } from './types';

/** What of the row a judge reads. */
export type RowForJudge = Pick<DatasetRow, 'question' | 'expected' | 'rubric'>;

/** The reference answers in `expected` (`|`-separated, `\|` for a literal bar); each becomes a `<reference>` section. */
export function referencesOf(expected: string): string[] {
  return parseReferences(expected);
}

/** The request for a spec, or a reason why there is nothing to judge (then the assertion fails with it). */
export function judgeRequestFor(spec: JudgeAssertionSpec, row: RowForJudge, answer: AnswerForGrading): JudgeRequest | { missing: string } {
  if (spec.type === 'llm-rubric') {
    const rubric = spec.value ?? row.rubric;
    if (rubric === undefined || rubric.trim() === '') return { missing: 'no rubric: no `value` on the assertion and no `rubric` on the row' };
    return { kind: JudgeKind.rubric, question: row.question, answer: answer.answer, rubric };
  }
  if (row.expected === undefined || row.expected.trim() === '') return { missing: 'nothing to compare with: no `expected` on the row' };
  return { kind: JudgeKind.correctness, question: row.question, answer: answer.answer, references: referencesOf(row.expected) };
}

/** The assertion result of a verdict: score 1 or 0, the judge's reason, and the verdict recorded in `judge`. */
export function judgeResult(spec: JudgeAssertionSpec, outcome: JudgeOutcome): AssertionResult {
  const pass = outcome.verdict === 'pass';
  return {
    type: spec.type,
    pass,
    score: pass ? 1 : 0,
    reason: `judge ${outcome.model}: ${outcome.verdict}${outcome.cached ? ' (cached)' : ''} — ${outcome.reason}`,
    judge: { model: outcome.model, verdict: outcome.verdict, reason: outcome.reason, tokens: outcome.tokens, cached: outcome.cached },
  };
}

/** The failed result of a spec with nothing to judge (no call is made). */
export function unjudgeableResult(spec: JudgeAssertionSpec, missing: string): AssertionResult {
  return { type: spec.type, pass: false, score: 0, reason: missing };
}
