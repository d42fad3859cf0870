/**
 * Streaming CSV reader (csv-parse): BOM, quoted multi-line fields, `,` `;` or tab detected from the
 * header line unless given. Tracks the 1-based line where each record starts. The bytes are checked (UTF-8, control
 * characters) on their way to the parser.
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { canonicalColumn, type RawRecord, type ReaderContext } from './columns';
import { TextCheck, textCheckTap, type TextProblem } from './encoding';
import { detectDelimiter, normalizeDelimiter, readFirstLine } from './format';
import { hashTap } from './hash';
import { RowLimit, sizeText } from './limits';

interface ParsedRecord {
  record: string[];
  /** The record's source text, including blank lines skipped before it. */
  raw: string;
}

const LINE_BREAK = /\r\n|\n|\r/gu;

/** Yields data records; header problems and CSV syntax errors go to `ctx.issues`. */
export async function* readCsv(path: string, ctx: ReaderContext, delimiter?: string): AsyncGenerator<RawRecord> {
  const firstLine = await readFirstLine(path);
  const fallback = path.toLowerCase().endsWith('.tsv') ? '\t' : ',';
  const chosen = delimiter === undefined ? detectDelimiter(firstLine, fallback) : normalizeDelimiter(path, delimiter);
  const parser = parse({
    bom: true, delimiter: chosen, raw: true, info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true,
    max_record_size: RowLimit.recordBytes,
  });
  // The check reads ahead of the parser (by a chunk or so): its problems wait here, and join the issues in line order.
  const problems: TextProblem[] = [];
  const takeProblems = (beforeLine: number): void => {
    while (problems.length > 0 && (problems[0] as TextProblem).line < beforeLine) {
      const { line, character, message } = problems.shift() as TextProblem;
      ctx.issues.addAt(line, character, message);
    }
  };
  const done = pipeline(createReadStream(path), hashTap(ctx.hash), textCheckTap(new TextCheck((p) => problems.push(p))), parser);
  done.catch(() => undefined); // surfaced by the iteration below
  let nextLine = 1;
  let header: string[] | undefined;
  try {
    for await (const parsed of parser as AsyncIterable<ParsedRecord>) {
      const line = nextLine + leadingBreaks(parsed.raw);
      nextLine += countBreaks(parsed.raw);
      takeProblems(nextLine);
      if (header === undefined) {
        header = readHeader(parsed.record, line, ctx);
        continue;
      }
      if (parsed.record.every((cell) => cell.trim() === '')) continue;
      yield { line, values: toValues(header, parsed.record, line, ctx) };
    }
    await done;
    takeProblems(Infinity);
  } catch (error) {
    ctx.complete = false;
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('CSV_')) throw error;
    takeProblems(nextLine + 1);
    ctx.issues.add(nextLine, csvErrorMessage(code, error as Error));
    takeProblems(Infinity);
    return;
  }
  if (header === undefined) ctx.issues.add(0, 'the file is empty: expected a header line naming the columns');
}

function csvErrorMessage(code: string, error: Error): string {
  if (code === 'CSV_QUOTE_NOT_CLOSED') return 'a quoted field that starts in this record is never closed';
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return `the record that starts here is over ${sizeText(RowLimit.recordBytes)}, the limit for one row (metadata columns included); reading stopped here`;
  }
  return `invalid CSV: ${error.message}`;
}

function readHeader(record: string[], line: number, ctx: ReaderContext): string[] {
  const names = record.map(canonicalColumn);
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === '') ctx.issues.add(line, `column ${i + 1} of the header has no name`);
    else if (seen.has(name)) ctx.issues.add(line, `column \`${name}\` appears twice in the header`, name);
    else ctx.onColumn?.(name, line);
    seen.add(name);
  });
  ctx.columns.push(...names.filter((n) => n !== ''));
  if (!seen.has('question')) ctx.issues.add(line, `the header has no \`question\` column (columns: ${names.join(', ')})`, 'question');
  return names;
}

function toValues(header: string[], record: string[], line: number, ctx: ReaderContext): Record<string, unknown> {
  if (record.length !== header.length) {
    ctx.issues.add(line, `the row has ${record.length} fields but the header has ${header.length}`);
  }
  const values: Record<string, unknown> = {};
  header.forEach((name, i) => {
    const cell = record[i];
    if (name !== '' && cell !== undefined && !(name in values)) values[name] = cell;
  });
  return values;
}

function countBreaks(text: string): number {
  return text.match(LINE_BREAK)?.length ?? 0;
}

function leadingBreaks(text: string): number {
  const blank = /^(?:[ \t]*(?:\r\n|\n|\r))*/u.exec(text)?.[0] ?? '';
  return countBreaks(blank);
}
