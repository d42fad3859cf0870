/**
 * The columns a `sitechat grade` input adds to a dataset: the recorded answer and, optionally, what the API said
 * of it. The dataset reader keeps unknown columns in `metadata`; these are taken out of it and checked here, so a
 * typo in a number is reported with its file and line before anything is graded.
 */
import type { DatasetRow } from '../domain/dataset';
import type { AnswerForGrading } from '../domain/grade';

export const AnswerColumn = {
  answer: 'answer',
  confidenceScore: 'confidence_score',
  latencyMs: 'latency_ms',
} as const;

/** A row's recorded answer, or the problems that make it unusable. */
export type TakenAnswer =
  | { ok: true; row: DatasetRow; answer: AnswerForGrading | undefined }
  | { ok: false; problems: { column: string; message: string }[] };

function numberIn(raw: string | undefined, column: string, min: number, max: number, problems: { column: string; message: string }[]): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw.trim());
  if (Number.isFinite(n) && n >= min && n <= max) return n;
  const range = max === Number.POSITIVE_INFINITY ? `>= ${min}` : `from ${min} to ${max}`;
  problems.push({ column, message: `\`${column}\` must be a number ${range} (got ${JSON.stringify(raw)})` });
  return undefined;
}

/**
 * Splits the answer columns off a dataset row. `answer` is undefined when the cell is blank: the row then has no
 * recorded answer (an `error` outcome, never a grade of the empty string).
 */
export function takeAnswer(row: DatasetRow): TakenAnswer {
  const { [AnswerColumn.answer]: text, [AnswerColumn.confidenceScore]: confidence, [AnswerColumn.latencyMs]: latency, ...metadata } = row.metadata;
  const problems: { column: string; message: string }[] = [];
  const confidenceScore = numberIn(confidence, AnswerColumn.confidenceScore, 0, 100, problems);
  const latencyMs = numberIn(latency, AnswerColumn.latencyMs, 0, Number.POSITIVE_INFINITY, problems);
  if (problems.length > 0) return { ok: false, problems };
  const answer = text === undefined || text.trim() === '' ? undefined : { answer: text, confidenceScore, latencyMs };
  return { ok: true, row: { ...row, metadata }, answer };
}
