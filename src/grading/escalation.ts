/**
 * Escalation: the judge's question for a row the graders were uncertain about, and its verdict as the result that
 * settles the row. Pure and deterministic (workflow code builds the request). The question is the one a
 * `llm-correctness` assertion asks, so the judge cache serves both.
 */
import type { DatasetRow } from '../domain/dataset';
import { JudgeKind, type JudgeOutcome, type JudgeRequest } from './judge/types';
import { parseReferences } from './references';
import type { AnswerForGrading, AssertionResult, BuiltinAssertionSpec } from '../domain/grade';

/**
 * The correctness question for the uncertain assertions' references (a spec's `value`, else the row's `expected`), or
 * undefined when they have none (nothing to ask).
 */
export function escalationRequest(
  row: Pick<DatasetRow, 'question' | 'expected'>,
  answer: AnswerForGrading,
  uncertain: readonly BuiltinAssertionSpec[],
): JudgeRequest | undefined {
  const references: string[] = [];
  for (const spec of uncertain) {
    const source = 'value' in spec && typeof spec.value === 'string' ? spec.value : row.expected;
    for (const reference of parseReferences(source ?? '')) if (!references.includes(reference)) references.push(reference);
  }
  if (references.length === 0) return undefined;
  return { kind: JudgeKind.correctness, question: row.question, answer: answer.answer, references };
}

/** The judge's verdict as the assertion result that settles an uncertain row (marked `escalated`). */
export function escalationResult(outcome: JudgeOutcome): AssertionResult {
  const pass = outcome.verdict === 'pass';
  return {
    type: 'llm-correctness',
    pass,
    score: pass ? 1 : 0,
    escalated: true,
    reason: `escalated (the graders were uncertain): judge ${outcome.model}: ${outcome.verdict}${outcome.cached ? ' (cached)' : ''} — ${outcome.reason}`,
    judge: { model: outcome.model, verdict: outcome.verdict, reason: outcome.reason, tokens: outcome.tokens, cached: outcome.cached },
  };
}
