/**
 * Assertion specs are plain JSON so they can travel in workflow payloads, and every built-in grader
 * is pure, deterministic code (no Node APIs) so it may run inside the workflow sandbox.
 */
import type { DatasetRow } from './dataset';

export type AssertionSpec =
  | { type: 'equals'; value: string }
  | { type: 'contains'; value: string }
  | { type: 'icontains'; value: string }
  | { type: 'contains-all'; values: string[] }
  | { type: 'contains-any'; values: string[] }
  | { type: 'not-contains'; values: string[] }
  | { type: 'regex'; pattern: string; flags?: string }
  /**
   * Does the answer give the reference's answer: it contains the reference, or enough of its content
   * words (all of them for a reference of one or two). The default for `expected`. @default threshold 0.6
   */
  | { type: 'reference'; value?: string; threshold?: number }
  /** SQuAD-style token F1 against the row's `expected` (or `value`). @default threshold 0.5 */
  | { type: 'f1'; value?: string; threshold?: number }
  /** ROUGE-L F-measure against `expected` (or `value`). @default threshold 0.4 */
  | { type: 'rouge-l'; value?: string; threshold?: number }
  /** Normalized Levenshtein similarity (1 - distance / max length). @default threshold 0.8 */
  | { type: 'levenshtein'; value?: string; threshold?: number }
  | { type: 'min-confidence'; threshold: number }
  | { type: 'max-latency'; ms: number }
  /** Path to a JS/TS module exporting `grade(row, answer)`; runs in an activity, never in the workflow. */
  | { type: 'custom'; module: string; threshold?: number }
  /**
   * An LLM judge decides whether the answer meets the criteria: `value`, else the row's `rubric` column.
   * Runs in an activity on the judge queue.
   */
  | { type: 'llm-rubric'; value?: string }
  /** An LLM judge decides whether the answer is consistent with the row's `expected` reference(s). */
  | { type: 'llm-correctness' };

export type AssertionType = AssertionSpec['type'];

/** What a grader sees of the answer. */
export interface AnswerForGrading {
  answer: string;
  confidenceScore?: number;
  latencyMs?: number;
}

/** What of the row the graders read: the reference answer, and the question (`reference` ignores its words as evidence). */
export type RowForGrading = Pick<DatasetRow, 'expected' | 'rubric'> & Partial<Pick<DatasetRow, 'question'>>;

/** What a grade says: the answer passes, fails, or the grader cannot tell (then it says why in `reason`). */
export const GradeVerdict = { pass: 'pass', fail: 'fail', uncertain: 'uncertain' } as const;
export type GradeVerdict = (typeof GradeVerdict)[keyof typeof GradeVerdict];

export interface AssertionResult {
  type: AssertionType;
  /** The two-way verdict: an uncertain result has `pass: false` (so graders before three-way grading read the same). */
  pass: boolean;
  /**
   * The grader found no evidence either way (`reference`: the answer neither gives the reference's answer nor
   * contradicts it). `pass` is then false but is not a decided fail. Absent for decided results.
   */
  uncertain?: true;
  /** Set on the judge's result for an uncertain row (escalation), not on judge assertions the row asked for. */
  escalated?: true;
  /** 0..1 */
  score: number;
  reason: string;
  /** Reference-based graders: the reference (one of the `|`-separated ones) the answer matched. */
  matched?: string;
  /** What the assertion checks (phrases, pattern, reference, threshold), shown in reports even when it passed. */
  rule?: string;
  /** Set by the LLM judge assertions: what the judge said, and what it cost. */
  judge?: JudgeRecord;
}

/** The judge's verdict as recorded on an assertion result. */
export interface JudgeRecord {
  /** The judge model (`SITECHAT_JUDGE_MODEL`). */
  model: string;
  verdict: 'pass' | 'fail';
  /** The judge's short reason. */
  reason: string;
  /** Tokens the call used (prompt + completion); for a cache hit, what the original call used. */
  tokens: number;
  /** Taken from the judge cache: no call was made for it in this run. */
  cached: boolean;
}

export interface GradeResult {
  /** false when the row had no assertion: answered but ungraded (and no feedback is sent). */
  graded: boolean;
  /** Every assertion passed (a two-way grade: false for an uncertain grade too). */
  pass: boolean;
  /**
   * Three-way: `fail` when any assertion decidedly fails, else `uncertain` when any could not decide, else `pass`.
   * Meaningless when `graded` is false.
   */
  verdict: GradeVerdict;
  assertions: AssertionResult[];
  /**
   * `custom` and judge specs that `gradeAnswer` did not run (they need I/O): `gradeRow` hands them to
   * its `external` grader and merges the results with `combineGrades`. Absent when there are none;
   * while present, `pass` covers the built-in assertions only.
   */
  pending?: ExternalAssertionSpec[];
  /**
   * Set by `gradeRow` when an external grader could not give a verdict (judge unreachable, unparseable
   * reply, custom module missing): the row is then `error`, never a silent pass or fail.
   */
  error?: { message: string; type: string };
  /**
   * Set when the row was uncertain and escalation was tried: empty when the judge settled it (its result is the
   * assertion marked `escalated`), `noJudge` when none is configured, `error` when the judge could not answer.
   */
  escalation?: { noJudge?: true; error?: { message: string; type: string } };
}

/** Assertions the pure graders evaluate (everything but `custom` and the judge types). */
export type BuiltinAssertionSpec = Exclude<AssertionSpec, ExternalAssertionSpec>;

/** A custom module grader: runs in an activity. */
export type CustomAssertionSpec = Extract<AssertionSpec, { type: 'custom' }>;

/** Assertions an LLM judge decides. */
export type JudgeAssertionSpec = Extract<AssertionSpec, { type: 'llm-rubric' | 'llm-correctness' }>;

/** Assertions that need I/O, so they run outside the pure graders (in activities, or in `sitechat grade`). */
export type ExternalAssertionSpec = CustomAssertionSpec | JudgeAssertionSpec;

/** The assertion types that are external. */
export const EXTERNAL_ASSERTION_TYPES = ['custom', 'llm-rubric', 'llm-correctness'] as const satisfies readonly ExternalAssertionSpec['type'][];

export function isExternalSpec(spec: AssertionSpec): spec is ExternalAssertionSpec {
  return (EXTERNAL_ASSERTION_TYPES as readonly string[]).includes(spec.type);
}

export function isJudgeSpec(spec: AssertionSpec): spec is JudgeAssertionSpec {
  return spec.type === 'llm-rubric' || spec.type === 'llm-correctness';
}

/** Run-wide pass thresholds for reference-based graders whose spec gives no `threshold`. */
export interface GradingThresholds {
  /** Share of a reference's content words the `reference` grader needs (3+ content words). @default 0.6 */
  reference?: number;
  /** Token F1. @default 0.5 */
  f1?: number;
  /** ROUGE-L F-measure. @default 0.4 */
  rougeL?: number;
  /** Normalized Levenshtein similarity. @default 0.8 */
  levenshtein?: number;
}
