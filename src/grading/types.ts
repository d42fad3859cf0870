/**
 * Assertion specs are plain JSON so they can travel in workflow payloads, and every built-in grader
 * is pure, deterministic code (no Node APIs) so it may run inside the workflow sandbox.
 */
export type AssertionSpec =
  | { type: 'equals'; value: string }
  | { type: 'contains'; value: string }
  | { type: 'icontains'; value: string }
  | { type: 'contains-all'; values: string[] }
  | { type: 'contains-any'; values: string[] }
  | { type: 'not-contains'; values: string[] }
  | { type: 'regex'; pattern: string; flags?: string }
  /** SQuAD-style token F1 against the row's `expected` (or `value`). @default threshold 0.5 */
  | { type: 'f1'; value?: string; threshold?: number }
  /** ROUGE-L F-measure against `expected` (or `value`). @default threshold 0.4 */
  | { type: 'rouge-l'; value?: string; threshold?: number }
  /** Normalized Levenshtein similarity (1 - distance / max length). @default threshold 0.8 */
  | { type: 'levenshtein'; value?: string; threshold?: number }
  | { type: 'min-confidence'; threshold: number }
  | { type: 'max-latency'; ms: number }
  /** Path to a JS/TS module exporting `grade(row, answer)`; runs in an activity, never in the workflow. */
  | { type: 'custom'; module: string; threshold?: number };

export type AssertionType = AssertionSpec['type'];

/** What a grader sees of the answer. */
export interface AnswerForGrading {
  answer: string;
  confidenceScore?: number;
  latencyMs?: number;
}

export interface AssertionResult {
  type: AssertionType;
  pass: boolean;
  /** 0..1 */
  score: number;
  reason: string;
}

export interface GradeResult {
  /** false when the row had no assertion: answered but ungraded (and no feedback is sent). */
  graded: boolean;
  pass: boolean;
  assertions: AssertionResult[];
}
