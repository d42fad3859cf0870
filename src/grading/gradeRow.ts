/**
 * The one grading path of a row, shared by `sitechat run` (inside the workflow) and `sitechat grade` (offline):
 * the row's assertions, the pure graders, then the external ones (custom modules, the LLM judge) through the
 * caller's `external` — activities in a workflow, direct calls offline. Pure and deterministic: no Node imports.
 */
import type { DatasetRow } from '../domain/dataset';
import { DecidedBy, Outcome, type GradeDecision, type RowResult } from '../domain/results';
import { assertionsForRow } from './assertions';
import { escalationRequest, escalationResult } from './escalation';
import { combineGrades, gradeAnswer } from './grade';
import type { JudgeOutcome, JudgeRequest } from './judge/types';
import {
  GradeVerdict,
  isExternalSpec,
  type AnswerForGrading,
  type AssertionResult,
  type AssertionSpec,
  type BuiltinAssertionSpec,
  type ExternalAssertionSpec,
  type GradeResult,
  type GradingThresholds,
} from '../domain/grade';

/** Runs the external specs of one row and returns one result per spec, in the same order. */
export type ExternalGrader = (specs: ExternalAssertionSpec[]) => Promise<AssertionResult[]>;

/** The run's grading settings. */
export interface GradeRowOptions {
  /** Assertions applied to every row (the run config's). @default [] */
  assertions?: readonly AssertionSpec[];
  thresholds?: GradingThresholds;
}

/**
 * Asks the judge to settle an uncertain row: its verdict, or undefined when no judge is configured (the row stays
 * uncertain). Throws when the judge cannot answer (the row stays uncertain, with the reason).
 */
export type Escalator = (request: JudgeRequest) => Promise<JudgeOutcome | undefined>;

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
  escalate?: Escalator,
): Promise<GradeResult> {
  const specs = assertionsForRow(row, options.assertions ?? [], options.thresholds ?? {});
  const grade = await gradeWith(row, answer, specs, options, external);
  if (!escalate || !grade.graded || grade.error || grade.verdict !== GradeVerdict.uncertain) return grade;
  return escalated(grade, row, answer, specs, escalate);
}

async function gradeWith(
  row: DatasetRow,
  answer: AnswerForGrading,
  specs: readonly AssertionSpec[],
  options: GradeRowOptions,
  external: ExternalGrader,
): Promise<GradeResult> {
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
 * Settling order for an uncertain grade: the judge (`escalate`), on the references of the uncertain assertions. When
 * there is no judge, or it cannot answer, the grade stays uncertain and says why.
 */
async function escalated(
  grade: GradeResult,
  row: DatasetRow,
  answer: AnswerForGrading,
  specs: readonly AssertionSpec[],
  escalate: Escalator,
): Promise<GradeResult> {
  // Built-in results come first, in the order of the built-in specs (`gradeAnswer`).
  const builtins = specs.filter((s): s is BuiltinAssertionSpec => !isExternalSpec(s));
  const uncertainSpecs = builtins.filter((_, i) => grade.assertions[i]?.uncertain === true);
  const request = escalationRequest(row, answer, uncertainSpecs);
  if (request === undefined) return grade;
  let outcome: JudgeOutcome | undefined;
  try {
    outcome = await escalate(request);
  } catch (err) {
    return { ...grade, escalation: { error: describe(err) } };
  }
  if (outcome === undefined) return { ...grade, escalation: { noJudge: true } };
  return { ...combineGrades(grade, [escalationResult(outcome)]), escalation: {} };
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
  return { ...answered, outcome: OUTCOME_OF[grade.verdict], assertions: grade.assertions, decision: decisionOf(grade) };
}

const OUTCOME_OF = {
  [GradeVerdict.pass]: Outcome.passed,
  [GradeVerdict.fail]: Outcome.failed,
  [GradeVerdict.uncertain]: Outcome.uncertain,
} as const satisfies Record<GradeVerdict, Outcome>;

/** Who settled a grade and why, in the words of the assertion that decided it. */
export function decisionOf(grade: GradeResult): GradeDecision {
  const { verdict, assertions } = grade;
  const judged = assertions.find((a) => a.escalated);
  if (judged?.judge) return { verdict, by: DecidedBy.judge, reason: judged.judge.reason };
  const deciding = verdict === GradeVerdict.fail
    ? assertions.find((a) => !a.pass && !a.uncertain)
    : verdict === GradeVerdict.uncertain ? assertions.find((a) => a.uncertain) : undefined;
  const reason = deciding
    ? `${deciding.type}: ${deciding.reason}`
    : `${assertions.length === 1 ? 'its assertion passed' : `all ${assertions.length} assertions passed`}`;
  if (verdict !== GradeVerdict.uncertain || !grade.escalation) return { verdict, by: DecidedBy.graders, reason };
  const { error } = grade.escalation;
  if (error) return { verdict, by: DecidedBy.graders, reason, judgeError: `${error.type}: ${error.message}` };
  return { verdict, by: DecidedBy.graders, reason: `${reason}; no judge configured to settle it` };
}

/** The feedback a grade earns: `good`/`bad` for a decided grade, none for an ungraded, errored or uncertain one. */
export function feedbackFor(grade: GradeResult | undefined): 'good' | 'bad' | undefined {
  if (!grade?.graded || grade.error) return undefined;
  switch (grade.verdict) {
    case GradeVerdict.pass: return 'good';
    case GradeVerdict.fail: return 'bad';
    case GradeVerdict.uncertain: return undefined;
  }
}

function describe(err: unknown): { message: string; type: string } {
  if (err instanceof GradingError) return { message: err.message, type: err.errorType };
  if (err instanceof Error) return { message: err.message, type: err.name };
  return { message: String(err), type: 'Error' };
}
