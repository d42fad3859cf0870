/**
 * The aggregator: evaluates a row's assertions against an answer. Pure and deterministic, safe in
 * workflow code. External assertions (`custom`, the LLM judge) are not run here; they come back in `pending`.
 */
import { rougeL, tokenF1 } from './overlap';
import { maxLatency, minConfidence } from './metrics';
import { prepareAnswer, referenceAnswer } from './reference';
import { failEvidence } from './referenceEvidence';
import { bestOverReferences, parseReferences } from './references';
import { levenshtein } from './similarity';
import { describeRule } from './rule';
import { contains, containsAll, containsAny, equals, icontains, notContains, regex } from './textGraders';
import type {
  AnswerForGrading,
  AssertionResult,
  AssertionSpec,
  BuiltinAssertionSpec,
  ExternalAssertionSpec,
  GradeResult,
  GradingThresholds,
} from '../domain/grade';
import { GradeVerdict, isExternalSpec, type RowForGrading } from '../domain/grade';

/** Thresholds used when neither the spec nor the run config gives one. */
export const DEFAULT_THRESHOLDS = { reference: 0.6, f1: 0.5, rougeL: 0.4, levenshtein: 0.8 } as const satisfies Required<GradingThresholds>;

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
 * The three-way verdict of assertion results: `fail` when any decidedly fails (an uncertain result does not hide a
 * decided fail), else `uncertain` when any could not decide, else `pass`.
 */
export function verdictOf(assertions: readonly AssertionResult[]): GradeVerdict {
  if (assertions.some((a) => !a.pass && !a.uncertain)) return GradeVerdict.fail;
  // The judge's verdict on an uncertain row (escalation) settles every uncertain assertion of it.
  const settled = assertions.some((a) => a.escalated);
  return !settled && assertions.some((a) => a.uncertain) ? GradeVerdict.uncertain : GradeVerdict.pass;
}

/**
 * Grades an answer: `graded` is false when there are no specs (then `pass` is false and means
 * nothing); otherwise `pass` is true when every evaluated assertion passes, and `verdict` is three-way.
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
  const verdict = verdictOf(assertions);
  const result: GradeResult = { graded, pass: graded && verdict === GradeVerdict.pass, verdict, assertions };
  return pending.length > 0 ? { ...result, pending } : result;
}

/** Merges the results of the `pending` external assertions into a grade. */
export function combineGrades(base: GradeResult, custom: readonly AssertionResult[]): GradeResult {
  const assertions = [...base.assertions, ...custom];
  const graded = base.graded || assertions.length > 0;
  const verdict = verdictOf(assertions);
  return { graded, pass: graded && verdict === GradeVerdict.pass, verdict, assertions };
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
      if (spec.type === 'reference') {
        const prepared = prepareAnswer(text);
        const threshold = spec.threshold ?? thresholds.reference;
        return threeWay(bestOverReferences(references, (reference) => referenceAnswer(prepared, reference, threshold, against)), text, references, row);
      }
      return bestOverReferences(references, (reference) => {
        switch (spec.type) {
          case 'f1': return tokenF1(text, reference, spec.threshold ?? thresholds.f1, against);
          case 'rouge-l': return rougeL(text, reference, spec.threshold ?? thresholds.rougeL, against);
          case 'levenshtein': return levenshtein(text, reference, spec.threshold ?? thresholds.levenshtein, against);
        }
      });
    }
  }
}

/**
 * `reference` fails only on evidence (src/grading/referenceEvidence.ts); an answer that neither gives a reference's
 * answer nor contradicts it is uncertain. The pass rules are unchanged, so `pass` reads as before three-way grading.
 */
function threeWay(result: AssertionResult, answer: string, references: readonly string[], row: RowForGrading): AssertionResult {
  if (result.pass) return result;
  const finding = failEvidence(answer, references, row.question);
  if (finding) return { ...result, reason: `${finding.reason}; ${result.reason}` };
  return { ...result, uncertain: true, reason: `uncertain: ${result.reason}, but no evidence that it is wrong (no refusal, no conflicting number, words in common)` };
}

function definedOnly(thresholds: GradingThresholds): GradingThresholds {
  return Object.fromEntries(Object.entries(thresholds).filter(([, v]) => v !== undefined));
}
