import type { DatasetRow } from './dataset';
import { Outcome, type RowResult } from './results';

/** What a row's result says of the dataset row, before anything was asked. Pure: workflows use it too. */
export function rowBase(row: DatasetRow): Omit<RowResult, 'outcome'> {
  return {
    id: row.id,
    index: row.index,
    line: row.line,
    question: row.question,
    conversation: row.conversation,
    turn: row.turn,
    email: row.email,
    model: row.model,
    expected: row.expected,
    tags: row.tags,
    metadata: Object.keys(row.metadata).length > 0 ? row.metadata : undefined,
    ...(row.repeat !== undefined && { baseId: row.baseId, repeat: row.repeat }),
    ...(row.confirm !== undefined && { baseId: row.baseId, confirm: row.confirm }),
  };
}

/** A row that got no answer: `skipped` (cancelled) or `error`, with the reason. */
export function unansweredResult(
  row: DatasetRow,
  outcome: typeof Outcome.skipped | typeof Outcome.error,
  reason: string,
  finishedAt: string,
  extra: Pick<RowResult, 'errorType' | 'errorStatus' | 'apiError' | 'sessionId' | 'reasked'> = {},
): RowResult {
  return { ...rowBase(row), ...extra, outcome, error: reason, finishedAt };
}

/** What the runner got back for a question: the answer, or why there is none. (The ask activity returns this.) */
export interface AnswerRecord {
  status: 'completed' | 'failed' | 'timed_out';
  sessionId?: string;
  requestId?: string;
  answer?: string;
  confidenceScore?: number;
  confidenceLevel?: string;
  confidenceReason?: string;
  /** The `error` string of a `failed` request, or why the answer never came. */
  error?: string;
  /** From the request going out to the answer being seen, less `latencyUnobservedMs`. */
  latencyMs: number;
  /**
   * Time nobody watched the request (a worker died or Temporal was down, and the next attempt found the answer
   * there): the answer came at some point within it, so it is not counted in `latencyMs`.
   */
  latencyUnobservedMs?: number;
}

/**
 * A row with its answer, before grading: `answered`, or `error` for a failed request, `timed_out` when the
 * answer never came. `gradedResult` (src/grading/gradeRow) then turns an `answered` row into its grade.
 */
export function answeredResult(row: DatasetRow, ask: AnswerRecord, model: string | undefined, finishedAt: string): RowResult {
  const base: RowResult = {
    ...rowBase(row),
    model,
    outcome: Outcome.answered,
    answer: ask.answer,
    confidenceScore: ask.confidenceScore,
    confidenceLevel: ask.confidenceLevel,
    confidenceReason: ask.confidenceReason,
    latencyMs: ask.latencyMs,
    latencyUnobservedMs: ask.latencyUnobservedMs,
    sessionId: ask.sessionId,
    requestId: ask.requestId,
    finishedAt,
  };
  if (ask.status === 'failed') {
    return { ...base, outcome: Outcome.error, error: `request failed: ${ask.error ?? 'no error given'}`, errorType: 'RequestFailed', ...(ask.error !== undefined && { apiError: ask.error }) };
  }
  if (ask.status === 'timed_out') return { ...base, outcome: Outcome.timedOut, error: ask.error };
  return base;
}
