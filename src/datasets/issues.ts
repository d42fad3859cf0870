/** Dataset problems: one-line formatting, a bounded collector, and the errors that carry them. */
import type { DatasetIssue } from '../domain/dataset';

/** Issues shown in an error message before "… and N more". */
const SHOWN_IN_MESSAGE = 20;

/**
 * `datasets/x.csv:14: \`question\` is empty`, `datasets/x.csv:14:3: …` when the problem is one character (the line is
 * left out for whole-file problems).
 */
export function formatIssue(issue: DatasetIssue): string {
  if (issue.line <= 0) return `${issue.file}: ${issue.message}`;
  return issue.character === undefined ? `${issue.file}:${issue.line}: ${issue.message}` : `${issue.file}:${issue.line}:${issue.character}: ${issue.message}`;
}

/** Collects issues up to `max` while counting them all. */
export class IssueCollector {
  readonly issues: DatasetIssue[] = [];
  total = 0;

  /** @param max issues kept; the rest are only counted. @default 1000 */
  constructor(readonly file: string, readonly max = 1000) {}

  /** Records a problem; `message` should name the column in backticks when there is one. */
  add(line: number, message: string, column?: string): void {
    this.total += 1;
    if (this.issues.length < this.max) this.issues.push(column === undefined ? { file: this.file, line, message } : { file: this.file, line, column, message });
  }

  /** Records a problem with one character of a line (1-based `character`). */
  addAt(line: number, character: number, message: string): void {
    this.total += 1;
    if (this.issues.length < this.max) this.issues.push({ file: this.file, line, character, message });
  }
}

/** The dataset has problems; `issues` lists them (at most `maxIssues`), `total` counts them all. */
export class DatasetValidationError extends Error {
  override readonly name = 'DatasetValidationError';
  readonly total: number;

  constructor(readonly file: string, readonly issues: DatasetIssue[], total = issues.length) {
    const shown = issues.slice(0, SHOWN_IN_MESSAGE).map(formatIssue);
    const more = total - shown.length;
    super([`${file}: ${total} problem${total === 1 ? '' : 's'} in the dataset`, ...shown, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n'));
    this.total = total;
  }
}

/** The dataset is not the file a run was started with. */
export class DatasetChangedError extends Error {
  override readonly name = 'DatasetChangedError';

  constructor(readonly file: string, readonly expectedSha256: string, readonly actualSha256: string) {
    super(`${file} changed since the run started: sha256 was ${expectedSha256}, is now ${actualSha256}`);
  }
}

/** The file cannot be read as a dataset at all (missing, unreadable, unknown extension). */
export class DatasetFileError extends Error {
  override readonly name = 'DatasetFileError';

  constructor(readonly file: string, message: string, options?: { cause?: unknown }) {
    super(`${file}: ${message}`, options);
  }
}
