import type { DatasetIssue, DatasetRow } from '../domain/dataset';
import type { AnswerForGrading } from '../domain/grade';
import type { Provenance } from '../domain/provenance';
import type { RowResult } from '../domain/results';

/** Where the recorded answers come from. */
export type GradeSource =
  | { kind: 'file'; path: string }
  /** A previous run's directory; its site and model label the re-graded run so baselines pair like with like. */
  | { kind: 'run'; path: string; runId?: string; siteId?: string; model?: string; answers?: Provenance['answers'] };

/** One row to grade again. */
export interface GradeItem {
  row: DatasetRow;
  /** The recorded answer; undefined when there is none (a blank `answer` cell). */
  answer: AnswerForGrading | undefined;
  /** The row as the earlier run recorded it, when it had an answer (session and request ids are kept). */
  recorded?: RowResult;
  /** A row of an earlier run that got no answer (error, timed_out, skipped): kept as it was, not graded. */
  kept?: RowResult;
}

/** A validated input, ready to be streamed. */
export interface GradeInput {
  source: GradeSource;
  /** Dataset reference for the run's meta: the original dataset of a run, or the file itself. */
  dataset: string;
  datasetSha256: string;
  rows: number;
  /** Problems that stop the grade before anything is graded (exit 2). */
  issues: DatasetIssue[];
  issueCount: number;
  /** Said to the user, and kept in the run's meta. Filled while `items` streams, too. */
  warnings: string[];
  items(): AsyncIterable<GradeItem>;
}
