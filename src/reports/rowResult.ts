import type { DatasetRow } from '../datasets/types';
import { Outcome, type RowResult } from './types';

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
  };
}

/** A row that got no answer: `skipped` (cancelled) or `error`, with the reason. */
export function unansweredResult(
  row: DatasetRow,
  outcome: typeof Outcome.skipped | typeof Outcome.error,
  reason: string,
  finishedAt: string,
  extra: Pick<RowResult, 'errorType' | 'sessionId'> = {},
): RowResult {
  return { ...rowBase(row), ...extra, outcome, error: reason, finishedAt };
}
