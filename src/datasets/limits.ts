import type { DatasetRow, WorkUnit } from './types';

/**
 * What a row may weigh. Rows travel through Temporal (a page of the plan is one activity result, each question one
 * activity input), whose payloads must stay far under its limits (2 MB per payload, 4 MB per gRPC message). The
 * `metadata` columns never travel: activities read them from the plan when they record or grade a row, so they may
 * be as large as the disk allows.
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
