/** One streaming pass over a dataset: read, validate, hash; valid rows go to a callback. */
import { createHash } from 'node:crypto';
import { DatasetChecker } from './checks';
import { columnNameProblem, type ColumnNameRules } from './columnNames';
import { isKnownColumn, type ReaderContext } from './columns';
import { readCsv } from './csv';
import { datasetFormat, ensureReadableFile, type DatasetFormat } from './format';
import { sha256File } from './hash';
import { IssueCollector } from './issues';
import { readJsonl } from './jsonl';
import { parseRow, recordId, type RowDefaults } from './schema';
import type { DatasetIssue, DatasetRow } from '../domain/dataset';

/** Options shared by `scanDataset` and `buildWorkPlan`. */
export interface DatasetReadOptions {
  /** CSV delimiter: one character, or `tab`, `comma`, `semicolon`, `pipe`. @default detected from the header line */
  delimiter?: string;
  /** Email for rows without one (it ties the conversation to a user in the site's chat history). @default none */
  defaultEmail?: string;
  /** `response_language` / `ui_locale` for rows without one (a variant's settings). @default none */
  rowDefaults?: RowDefaults;
  /** Issues kept (all are counted). @default 1000 */
  maxIssues?: number;
  /**
   * A row opening a session without a `session_id` must have an email (spec §4.3). The runner names every session it
   * opens (a UUID), so the API needs no email from it; this is for callers that let the service create sessions.
   * @default false
   */
  requireEmail?: boolean;
  /**
   * Every `session_id` must be a UUID: for a run that sends feedback, which the API may refuse for session ids that are
   * not (spec §1). Refused before the first question, not after the last. @default false
   */
  uuidSessionIds?: boolean;
  /**
   * Refuse a column whose name is close to one the command reads (`expeted` for `expected`), which would otherwise
   * be kept as metadata and grade nothing (columnNames.ts). Given by the commands' checks before a run or a grading;
   * the plan a worker builds from a checked file needs no second look. @default names are not checked
   */
  columnNames?: ColumnNameRules;
}

/** What one pass found. Small and JSON-safe. */
export interface DatasetScan {
  /** The path as given. */
  file: string;
  format: DatasetFormat;
  /** Hex sha256 of the file's bytes. */
  sha256: string;
  /** Data rows (blank lines and all-empty CSV rows are not rows). */
  rows: number;
  /** Conversations, single-row ones included: the number of work units. */
  conversations: number;
  /** Columns in first-seen order; known columns in their canonical lower-case spelling. */
  columns: string[];
  /** At most `maxIssues` problems, in file order (whole-file checks last). */
  issues: DatasetIssue[];
  /** Every problem found, including those beyond `maxIssues`. */
  issueCount: number;
}

/**
 * Streams the file once. `onRow` sees each valid row in file order (awaited, so a slow consumer
 * slows the read instead of buffering); rows with problems are only counted.
 */
export async function walkDataset(
  file: string,
  options: DatasetReadOptions = {},
  onRow?: (row: DatasetRow) => void | Promise<void>,
): Promise<DatasetScan> {
  const format = datasetFormat(file);
  await ensureReadableFile(file);
  const issues = new IssueCollector(file, options.maxIssues);
  const rules = options.columnNames;
  const onColumn = rules === undefined ? undefined : (name: string, line: number): void => {
    const problem = isKnownColumn(name) ? undefined : columnNameProblem(name, rules);
    if (problem !== undefined) issues.add(line, problem, name);
  };
  const ctx: ReaderContext = { file, hash: createHash('sha256'), issues, columns: [], complete: true, onColumn };
  const checker = new DatasetChecker(issues, { requireEmail: options.requireEmail, uuidSessionIds: options.uuidSessionIds });
  const records = format === 'csv' ? readCsv(file, ctx, options.delimiter) : readJsonl(file, ctx);
  let rows = 0;
  for await (const record of records) {
    const index = rows;
    rows += 1;
    // A CSV header without `question` is reported once, not once per row.
    if (format === 'csv' && !ctx.columns.includes('question')) continue;
    checker.addId(recordId(record.values, index), record.line);
    const row = parseRow(record, { index, defaultEmail: options.defaultEmail, rowDefaults: options.rowDefaults }, issues);
    if (row === undefined) continue;
    checker.add(row);
    await onRow?.(row);
  }
  checker.finish();
  if (rows === 0 && issues.total === 0) issues.add(0, 'the dataset has no rows');
  const sha256 = ctx.complete ? ctx.hash.digest('hex') : await sha256File(file);
  return {
    file, format, sha256, rows, conversations: checker.conversationCount, columns: ctx.columns,
    issues: issues.issues, issueCount: issues.total,
  };
}

/**
 * Validates a dataset in one streaming pass and hashes its bytes. Throws `DatasetFileError` only
 * when the file cannot be read as a dataset; content problems are returned in `issues`.
 */
export async function scanDataset(file: string, options: DatasetReadOptions = {}): Promise<DatasetScan> {
  return walkDataset(file, options);
}
