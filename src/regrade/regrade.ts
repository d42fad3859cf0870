/**
 * Offline re-grading: recorded answers in, the same results and reports as a run out, nothing sent to the Site
 * Chat API. Rows stream from the input to the results store in batches; only the rows being graded are held.
 */
import { unansweredResult } from '../domain/rowResult';
import type { ResultsStore } from '../store/store';
import { Outcome, type RowResult } from '../domain/results';
import type { GradeItem } from './types';

/** Grades one recorded answer into the row's result, exactly as a run would (see `gradedResult`). */
export type ItemGrader = (item: GradeItem & { answer: NonNullable<GradeItem['answer']> }) => Promise<RowResult>;

export interface RegradeOptions {
  /** Rows graded at once; matters only for graders that wait (judge calls, custom modules). @default 8 */
  concurrency?: number;
  /** Results appended to the store per write. @default 500 */
  batch?: number;
  /** Called after every batch with the rows done so far. */
  onProgress?: (done: number) => void;
}

/** A row without an answer to grade keeps the earlier run's outcome, or is an error when the input has none. */
function ungraded(item: GradeItem, finishedAt: string): RowResult {
  if (item.kept) {
    // Feedback belonged to the earlier run; this one sends none.
    const { feedback: _feedback, ...kept } = item.kept;
    return kept;
  }
  return unansweredResult(item.row, Outcome.error, 'no answer recorded for this row in the input', finishedAt, { errorType: 'NoAnswer' });
}

/** Grades every item into `runId` of the store; returns the number of rows written. */
export async function regrade(
  items: AsyncIterable<GradeItem>,
  store: ResultsStore,
  runId: string,
  grade: ItemGrader,
  options: RegradeOptions = {},
): Promise<number> {
  const { concurrency = 8, batch = 500 } = options;
  let pending: RowResult[] = [];
  let done = 0;
  const flush = async (): Promise<void> => {
    const rows = pending;
    pending = [];
    if (rows.length === 0) return;
    await store.append(runId, rows);
    done += rows.length;
    options.onProgress?.(done);
  };
  const inFlight = new Set<Promise<void>>();
  for await (const item of items) {
    const { answer } = item;
    if (answer === undefined) {
      pending.push(ungraded(item, new Date().toISOString()));
    } else {
      const task: Promise<void> = grade({ ...item, answer }).then((result) => void pending.push(result)).finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    if (pending.length >= batch) await flush();
  }
  await Promise.all(inFlight);
  await flush();
  return done;
}
