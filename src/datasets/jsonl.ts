/** Streaming JSONL reader: one JSON object per line, blank lines skipped, line numbers kept. */
import { createReadStream } from 'node:fs';
import { canonicalColumn, type RawRecord, type ReaderContext } from './columns';

const NEWLINE = 0x0a;

/** Yields one record per non-blank line; unparsable lines go to `ctx.issues`. */
export async function* readJsonl(path: string, ctx: ReaderContext): AsyncGenerator<RawRecord> {
  const seen = new Set<string>();
  let lineNo = 1;
  let carry: Buffer[] = [];
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    ctx.hash.update(chunk);
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const bytes = carry.length > 0 ? Buffer.concat([...carry, chunk.subarray(start, end)]) : chunk.subarray(start, end);
      carry = [];
      const record = toRecord(bytes, lineNo, ctx, seen);
      if (record !== undefined) yield record;
      lineNo += 1;
      start = end + 1;
    }
    if (start < chunk.length) carry.push(chunk.subarray(start));
  }
  const last = toRecord(Buffer.concat(carry), lineNo, ctx, seen);
  if (last !== undefined) yield last;
}

function toRecord(bytes: Buffer, line: number, ctx: ReaderContext, seen: Set<string>): RawRecord | undefined {
  let text = bytes.toString('utf8');
  if (line === 1) text = text.replace(/^\uFEFF/u, '');
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    ctx.issues.add(line, `invalid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    ctx.issues.add(line, `expected a JSON object, got ${Array.isArray(parsed) ? 'an array' : JSON.stringify(parsed)}`);
    return undefined;
  }
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const name = canonicalColumn(key);
    values[name] = value;
    if (!seen.has(name)) {
      seen.add(name);
      ctx.columns.push(name);
    }
  }
  return { line, values };
}
