import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { csvLine } from '../datasets/csvWriter';
import type { RowResult } from '../domain/results';

/** Columns of a backfill output file, in order. */
export const BACKFILL_COLUMNS = [
  'id', 'line', 'conversation', 'turn', 'email', 'question', 'outcome', 'answer', 'session_id', 'request_id',
  'confidence_score', 'confidence_level', 'confidence_reason', 'latency_ms', 'error',
] as const;

function record(r: RowResult): Record<(typeof BACKFILL_COLUMNS)[number], string | number | undefined> {
  return {
    id: r.id, line: r.line, conversation: r.conversation, turn: r.turn, email: r.email, question: r.question,
    outcome: r.outcome, answer: r.answer, session_id: r.sessionId, request_id: r.requestId,
    confidence_score: r.confidenceScore, confidence_level: r.confidenceLevel, confidence_reason: r.confidenceReason,
    latency_ms: r.latencyMs, error: r.error,
  };
}

async function* lines(results: AsyncIterable<RowResult>, csv: boolean): AsyncGenerator<string> {
  if (csv) yield csvLine(BACKFILL_COLUMNS);
  for await (const r of results) {
    const rec = record(r);
    yield csv ? csvLine(BACKFILL_COLUMNS.map((c) => rec[c])) : `${JSON.stringify(rec)}\n`;
  }
}

/**
 * Writes a backfill's answers in dataset order (the store yields rows by index), streaming, as CSV or JSONL by
 * the file's extension.
 */
export async function writeBackfillOutput(path: string, results: AsyncIterable<RowResult>): Promise<void> {
  const ext = extname(path).toLowerCase();
  if (!['.csv', '.jsonl', '.ndjson'].includes(ext)) throw new Error(`--out ${path}: use a .csv or .jsonl file name`);
  await mkdir(dirname(path), { recursive: true });
  await pipeline(Readable.from(lines(results, ext === '.csv')), createWriteStream(path));
}
