/**
 * The one grading path of a row, shared by `sitechat run` (inside the workflow) and `sitechat grade` (offline):
 * the row's assertions, the pure graders, then the external ones (custom modules, the LLM judge) through the
 * caller's `external` — activities in a workflow, direct calls offline. Pure and deterministic: no Node imports.
 */
import type { DatasetRow } from '../datasets/types';
import { Outcome, type RowResult } from '../reports/types';
import { assertionsForRow } from './assertions';
import { combineGrades, gradeAnswer } from './grade';
import type { AnswerForGrading, AssertionResult, AssertionSpec, ExternalAssertionSpec, GradeResult, GradingThresholds } from './types';

/** Runs the external specs of one row and returns one result per spec, in the same order. */
export type ExternalGrader = (specs: ExternalAssertionSpec[]) => Promise<AssertionResult[]>;

/** The run's grading settings. */
export interface GradeRowOptions {
  /** Assertions applied to every row (the run config's). @default [] */
  assertions?: readonly AssertionSpec[];
  thresholds?: GradingThresholds;
}

/**
 * An external grader could not give a verdict (judge unreachable after retries, unparseable reply, a custom module
 * that does not load). `errorType` names the cause for the report's error groups (e.g. `JudgeServerError`).
 */
export class GradingError extends Error {
  override name = 'GradingError';
  constructor(message: string, readonly errorType: string) {
    super(message);
  }
}

/**
 * Grades one answered row. When `external` throws, the grade carries `error` (and the results of the pure graders),
 * so the row ends `error` with the reason: never a silent pass or fail.
 */
export async function gradeRow(
  row: DatasetRow,
  answer: AnswerForGrading,
  options: GradeRowOptions,
  external: ExternalGrader,
): Promise<GradeResult> {
  const specs = assertionsForRow(row, options.assertions ?? [], options.thresholds ?? {});
  const base = gradeAnswer(row, answer, specs, options.thresholds);
  if (!base.pending) return base;
  let results: AssertionResult[];
  try {
    results = await external(base.pending);
  } catch (err) {
    const { pending: _pending, ...rest } = base;
    return { ...rest, pass: false, error: describe(err) };
  }
  if (results.length !== base.pending.length) {
    const { pending: _pending, ...rest } = base;
    const message = `external graders returned ${results.length} results for ${base.pending.length} assertions`;
    return { ...rest, pass: false, error: { message, type: 'GradingError' } };
  }
  return combineGrades(base, results);
}

/**
 * The row's outcome from its grade: `error` when an external grader failed, `answered` when nothing graded it,
 * else `passed` or `failed`, with the assertion results.
 */
export function gradedResult(answered: RowResult, grade: GradeResult): RowResult {
  if (grade.error) {
    const assertions = grade.assertions.length > 0 ? { assertions: grade.assertions } : {};
    return { ...answered, ...assertions, outcome: Outcome.error, error: `grading failed: ${grade.error.message}`, errorType: grade.error.type };
  }
  if (!grade.graded) return answered;
  return { ...answered, outcome: grade.pass ? Outcome.passed : Outcome.failed, assertions: grade.assertions };
}

/** The feedback a grade earns: `good`/`bad` for a graded row, none for an ungraded or errored one. */
export function feedbackFor(grade: GradeResult | undefined): 'good' | 'bad' | undefined {
  if (!grade?.graded || grade.error) return undefined;
  return grade.pass ? 'good' : 'bad';
}

function describe(err: unknown): { message: string; type: string } {
  if (err instanceof GradingError) return { message: err.message, type: err.errorType };
  if (err instanceof Error) return { message: err.message, type: err.name };
  return { message: String(err), type: 'Error' };
}
