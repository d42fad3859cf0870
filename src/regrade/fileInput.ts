/**
 * A CSV or JSONL file of recorded answers: the dataset columns plus `answer` (and optionally `confidence_score`,
 * `latency_ms`). Read twice, streaming: once to validate everything (nothing is graded when a line is wrong), once
 * to grade.
 */
import { BACKFILL_COLUMNS } from '../render/backfillOutput';
import { KNOWN_COLUMNS, walkDataset, type DatasetIssue, type DatasetReadOptions } from '../datasets';
import { DECLARE_AS_METADATA, type ColumnNameRules } from '../datasets/columnNames';
import { AnswerColumn, takeAnswer } from './answerColumns';
import type { GradeInput, GradeItem } from './types';

/** Problems shown before "… and N more", as for datasets. */
const MAX_ISSUES = 1000;

/**
 * The column names a grade input may not have: close to a dataset column or an answer column (`anwser`), unless the
 * config declares it as metadata. A backfill's answers file (its `outcome`, `request_id`, …) is read as it is.
 */
export function gradeColumnRules(metadata?: readonly string[]): ColumnNameRules {
  return { read: [...KNOWN_COLUMNS, ...Object.values(AnswerColumn)], alsoKnown: BACKFILL_COLUMNS, metadata, fix: DECLARE_AS_METADATA };
}

export interface FileInputOptions extends Pick<DatasetReadOptions, 'delimiter'> {
  /** Columns the config declares as metadata (its `metadata:`). @default [] */
  metadata?: readonly string[];
}

export async function openFileInput(file: string, options: FileInputOptions): Promise<GradeInput> {
  const extra: DatasetIssue[] = [];
  let extraTotal = 0;
  const columnNames = gradeColumnRules(options.metadata);
  const scan = await walkDataset(file, { delimiter: options.delimiter, maxIssues: MAX_ISSUES, requireEmail: false, columnNames }, (row) => {
    const taken = takeAnswer(row);
    if (taken.ok) return;
    for (const p of taken.problems) {
      extraTotal += 1;
      if (extra.length < MAX_ISSUES) extra.push({ file, line: row.line, column: p.column, message: p.message });
    }
  });
  if (!scan.columns.includes(AnswerColumn.answer)) {
    extraTotal += 1;
    extra.push({ file, line: 0, column: AnswerColumn.answer, message: `has no \`${AnswerColumn.answer}\` column: \`sitechat grade\` re-grades recorded answers (columns: ${scan.columns.join(', ')})` });
  }
  const issues = [...scan.issues, ...extra].sort((a, b) => (a.line || Infinity) - (b.line || Infinity));
  return {
    source: { kind: 'file', path: file },
    dataset: file,
    datasetSha256: scan.sha256,
    rows: scan.rows,
    issues,
    issueCount: scan.issueCount + extraTotal,
    warnings: [],
    async *items(): AsyncGenerator<GradeItem> {
      // walkDataset pushes rows to a callback; a small queue turns that into a pull stream without buffering the file.
      yield* pull<GradeItem>((push) => walkDataset(file, { delimiter: options.delimiter, requireEmail: false }, async (row) => {
        const taken = takeAnswer(row);
        if (taken.ok) await push({ row: taken.row, answer: taken.answer });
      }).then(() => undefined));
    },
  };
}

/**
 * Adapts a producer that awaits each `push` into an async generator. The producer waits until the consumer has
 * taken the item, so at most one item is held.
 */
export async function* pull<T>(produce: (push: (item: T) => Promise<void>) => Promise<void>): AsyncGenerator<T> {
  let waiting: ((v: IteratorResult<T>) => void) | undefined;
  let taken: (() => void) | undefined;
  const slot: { item?: IteratorResult<T>; error?: unknown } = {};
  const offer = (item: IteratorResult<T>): void => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(item);
    } else slot.item = item;
  };
  const done = produce((item) => new Promise<void>((resolve) => {
    taken = resolve;
    offer({ value: item, done: false });
  })).then(
    () => offer({ value: undefined, done: true }),
    (error: unknown) => {
      slot.error = error;
      offer({ value: undefined, done: true });
    },
  );
  for (;;) {
    const next = slot.item ?? (await new Promise<IteratorResult<T>>((resolve) => (waiting = resolve)));
    slot.item = undefined;
    if (next.done) break;
    yield next.value;
    const resume = taken;
    taken = undefined;
    resume?.();
  }
  await done;
  if (slot.error !== undefined) throw slot.error;
}
