import type { DatasetRow, WorkUnit } from '../domain/dataset';

/**
 * What a row may weigh. Rows travel through Temporal (a page of the plan is one activity result, each question one
 * activity input), whose payloads must stay far under its limits (2 MB per payload, 4 MB per gRPC message). The
 * `metadata` columns never travel: activities read them from the plan when they record or grade a row, so their
 * limit is a matter of memory, and far higher.
 */
export const RowLimit = {
  /**
   * Longest question, in characters. The spec does not show the API's maximum message length; this is the runner's
   * decision (docs/api-decisions-client.md), generous for a chat widget, and it keeps a page of questions small.
   */
  questionChars: 16_000,
  /** A row without its metadata, as JSON: question, references, rubric, assertions. */
  rowBytes: 32 * 1024,
  /** A page of the plan without metadata; a conversation, which is never split across pages, must fit in one. */
  pageBytes: 256 * 1024,
  /**
   * A row's metadata columns, as JSON. They stay out of workflow payloads, but each one is kept whole in memory while
   * the row is read, planned, recorded (results.jsonl, the results store) and graded: a RAG context or a transcript of
   * a few megabytes is fine, a 100 MB cell would be held by every step that touches its row.
   */
  metadataBytes: 16 * 1024 * 1024,
  /**
   * One JSONL line or CSV record, in bytes, checked while it is read: a longer one is refused without being held
   * whole or parsed. Twice `metadataBytes`, so that a row within the limits is never refused for its escapes.
   */
  recordBytes: 32 * 1024 * 1024,
  /**
   * Nesting of objects and arrays in a JSONL line, the row object being level 1 (`{"metadata": {"a": [1]}}` is 3).
   * Checked on the bytes before the line is parsed: serializing a value nested 100,000 deep overflows the stack.
   */
  jsonDepth: 32,
} as const;

/** The row as the workflows see it: everything but its metadata. */
export function slimRow<R extends DatasetRow>(row: R): R {
  return Object.keys(row.metadata).length === 0 ? row : { ...row, metadata: {} };
}

/** Bytes of the row as JSON without its metadata: what it costs in workflow payloads. */
export function slimBytes(row: DatasetRow): number {
  return Buffer.byteLength(JSON.stringify(slimRow(row)), 'utf8');
}

export function slimUnitBytes(unit: WorkUnit): number {
  return unit.rows.reduce((n, row) => n + slimBytes(row), 0);
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
}

/**
 * KiB below 1 MiB, else MiB to a tenth, rounded up: `8 MiB`, `8.1 MiB`. Rounded up, a size over a limit never reads
 * as the limit itself.
 */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return kib(bytes);
  return `${(Math.ceil((bytes * 10) / (1024 * 1024)) / 10).toString()} MiB`;
}
