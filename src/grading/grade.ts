/**
 * The aggregator: evaluates a row's assertions against an answer. Pure and deterministic, safe in
 * workflow code. External assertions (`custom`, the LLM judge) are not run here; they come back in `pending`.
 */
import type { DatasetRow } from '../datasets/types';
import { rougeL, tokenF1 } from './overlap';
import { maxLatency, minConfidence } from './metrics';
import { prepareAnswer, referenceAnswer } from './reference';
import { bestOverReferences, parseReferences } from './references';
import { levenshtein } from './similarity';
import { describeRule } from './rule';
import { contains, containsAll, containsAny, equals, icontains, notContains, regex } from './text';
import type {
  AnswerForGrading,
  AssertionResult,
  AssertionSpec,
  BuiltinAssertionSpec,
  ExternalAssertionSpec,
  GradeResult,
  GradingThresholds,
} from './types';
import { isExternalSpec } from './types';

/** Thresholds used when neither the spec nor the run config gives one. */
export const DEFAULT_THRESHOLDS = { reference: 0.6, f1: 0.5, rougeL: 0.4, levenshtein: 0.8 } as const satisfies Required<GradingThresholds>;

/** What of the row the graders read: the reference answer. */
export type RowForGrading = Pick<DatasetRow, 'expected' | 'rubric'>;

/** Evaluates one built-in assertion. Never throws: a grader failure becomes a failed result. */
export function evaluateAssertion(
  spec: BuiltinAssertionSpec,
  row: RowForGrading,
  answer: AnswerForGrading,
  thresholds: GradingThresholds = {},
): AssertionResult {
  const applied = { ...DEFAULT_THRESHOLDS, ...definedOnly(thresholds) };
  const rule = describeRule(spec, row, applied);
  try {
    return { ...evaluate(spec, row, answer, applied), rule };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { type: spec.type, pass: false, score: 0, reason: `grader error: ${message}`, rule };
  }
}

/**
 * Grades an answer: `graded` is false when there are no specs (then `pass` is false and means
 * nothing); otherwise `pass` is true when every evaluated assertion passes.
 */
export function gradeAnswer(
  row: RowForGrading,
  answer: AnswerForGrading,
  specs: readonly AssertionSpec[],
  thresholds: GradingThresholds = {},
): GradeResult {
  const pending = specs.filter((s): s is ExternalAssertionSpec => isExternalSpec(s));
  const assertions = specs
    .filter((s): s is BuiltinAssertionSpec => !isExternalSpec(s))
    .map((s) => evaluateAssertion(s, row, answer, thresholds));
  const graded = specs.length > 0;
  const result: GradeResult = { graded, pass: graded && assertions.every((a) => a.pass), assertions };
  return pending.length > 0 ? { ...result, pending } : result;
}

/** Merges the results of the `pending` external assertions into a grade. */
export function combineGrades(base: GradeResult, custom: readonly AssertionResult[]): GradeResult {
  const assertions = [...base.assertions, ...custom];
  const graded = base.graded || assertions.length > 0;
  return { graded, pass: graded && assertions.every((a) => a.pass), assertions };
}

function evaluate(
  spec: BuiltinAssertionSpec,
  row: RowForGrading,
  answer: AnswerForGrading,
  thresholds: Required<GradingThresholds>,
): AssertionResult {
  const text = answer.answer;
  switch (spec.type) {
    case 'equals': return equals(text, spec.value);
    case 'contains': return contains(text, spec.value);
    case 'icontains': return icontains(text, spec.value);
    case 'contains-all': return containsAll(text, spec.values);
    case 'contains-any': return containsAny(text, spec.values);
    case 'not-contains': return notContains(text, spec.values);
    case 'regex': return regex(text, spec);
    case 'min-confidence': return minConfidence(answer, spec.threshold);
    case 'max-latency': return maxLatency(answer, spec.ms);
    case 'reference':
    case 'f1':
    case 'rouge-l':
    case 'levenshtein': {
      const source = spec.value ?? row.expected;
      const against = spec.value === undefined ? 'expected' : 'value';
      if (source === undefined) {
        return { type: spec.type, pass: false, score: 0, reason: 'nothing to compare with: no `expected` on the row and no `value`' };
      }
      const references = parseReferences(source);
      if (references.length === 0) {
        return { type: spec.type, pass: false, score: 0, reason: `nothing to compare with: \`${against}\` has no reference between its \`|\`` };
      }
      const prepared = spec.type === 'reference' ? prepareAnswer(text) : text;
      return bestOverReferences(references, (reference) => {
        switch (spec.type) {
          case 'reference': return referenceAnswer(prepared, reference, spec.threshold ?? thresholds.reference, against);
          case 'f1': return tokenF1(text, reference, spec.threshold ?? thresholds.f1, against);
          case 'rouge-l': return rougeL(text, reference, spec.threshold ?? thresholds.rougeL, against);
          case 'levenshtein': return levenshtein(text, reference, spec.threshold ?? thresholds.levenshtein, against);
        }
      });
    }
  }
}

function definedOnly(thresholds: GradingThresholds): GradingThresholds {
  return Object.fromEntries(Object.entries(thresholds).filter(([, v]) => v !== undefined));
}
