/** Streaming JSONL reader: one JSON object per line, blank lines skipped, line numbers kept. */
import { createReadStream } from 'node:fs';
import { canonicalColumn, type RawRecord, type ReaderContext } from './columns';
import { controlName, TextCheck } from './encoding';
import { firstControl, nestsDeeperThan } from './jsonValues';
import { RowLimit, sizeText } from './limits';

const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;

/** The bytes of the line being read, up to `RowLimit.recordBytes`; past that only their count. */
class LineBytes {
  private parts: Buffer[] = [];
  size = 0;

  append(bytes: Buffer): void {
    this.size += bytes.length;
    if (this.size > RowLimit.recordBytes) this.parts = [];
    else this.parts.push(bytes);
  }

  /** The whole line, or undefined when it is over the limit; the buffer starts the next line. */
  take(): Buffer | undefined {
    const whole = this.size > RowLimit.recordBytes ? undefined : this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    return whole;
  }
}

/** Yields one record per non-blank line; unparsable lines go to `ctx.issues`. */
export async function* readJsonl(path: string, ctx: ReaderContext): AsyncGenerator<RawRecord> {
  const seen = new Set<string>();
  let lineNo = 1;
  // Lines with a bad byte or control character: the issue says more than the parser's error would.
  let flaggedLine = 0;
  const text = new TextCheck((problem) => {
    ctx.issues.addAt(problem.line, problem.character, problem.message);
    flaggedLine = problem.line;
  });
  const line = new LineBytes();
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    ctx.hash.update(chunk);
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      line.append(chunk.subarray(start, end));
      text.push(chunk.subarray(start, end + 1));
      const record = toRecord(line, lineNo, ctx, seen, flaggedLine === lineNo);
      if (record !== undefined) yield record;
      lineNo += 1;
      start = end + 1;
    }
    if (start < chunk.length) {
      line.append(chunk.subarray(start));
      text.push(chunk.subarray(start));
    }
  }
  text.end();
  const last = toRecord(line, lineNo, ctx, seen, flaggedLine === lineNo);
  if (last !== undefined) yield last;
}

function toRecord(line: LineBytes, lineNo: number, ctx: ReaderContext, seen: Set<string>, flagged: boolean): RawRecord | undefined {
  const size = line.size;
  const bytes = line.take();
  if (bytes === undefined) {
    ctx.issues.add(lineNo, `the line is ${sizeText(size)}; the limit is ${sizeText(RowLimit.recordBytes)} for one row (metadata columns included)`);
    return undefined;
  }
  let text = bytes.toString('utf8');
  if (lineNo === 1) text = text.replace(/^\uFEFF/u, '');
  if (text.trim() === '') return undefined;
  if (nestsDeeperThan(bytes, RowLimit.jsonDepth)) {
    ctx.issues.add(lineNo, `objects and arrays nest more than ${RowLimit.jsonDepth} levels deep (the row object is level 1); the limit is ${RowLimit.jsonDepth}`);
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    if (!flagged) ctx.issues.add(lineNo, `invalid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    ctx.issues.add(lineNo, `expected a JSON object, got ${Array.isArray(parsed) ? 'an array' : JSON.stringify(parsed)}`);
    return undefined;
  }
  // A control character can only be in a value as an escape (raw ones are found in the bytes, or by the parser).
  const escapes = bytes.includes(BACKSLASH);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const name = canonicalColumn(key);
    values[name] = value;
    if (!seen.has(name)) {
      seen.add(name);
      ctx.columns.push(name);
      ctx.onColumn?.(name, lineNo);
    }
    const control = escapes ? firstControl(key) ?? firstControl(value) : undefined;
    if (control !== undefined) {
      ctx.issues.add(lineNo, `\`${name}\` holds ${controlName(control)}, escaped in the JSON: only tab, newline and carriage return may appear in a value`, name);
    }
  }
  return { line: lineNo, values };
}
