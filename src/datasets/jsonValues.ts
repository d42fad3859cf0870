/** Checks on a JSONL line that its bytes do not show: how deep it nests, and control characters written as escapes. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text nests objects and arrays more than `limit` levels deep (the outermost is level 1). It reads
 * the bytes without parsing them, so a line nested 100,000 deep is measured without recursion; brackets inside
 * strings do not count. Malformed JSON gets some answer; the parser reports it afterwards.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) i = stringEnd(bytes, i);
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open` (the end of the bytes when none does). */
function stringEnd(bytes: Uint8Array, open: number): number {
  for (let quote = bytes.indexOf(QUOTE, open + 1); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return bytes.length;
}

/**
 * C0 controls a JSON string can hold only as an escape (`\u0000`): the same ones the byte check refuses. Tab,
 * newline and carriage return are fine inside a value (a multi-line answer keeps them).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this regex's purpose
const ESCAPED_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/u;

/**
 * The code of the first control character in a parsed value's strings (object keys included), or undefined. Only
 * for values whose depth was bounded by `nestsDeeperThan`: it recurses.
 */
export function firstControl(value: unknown): number | undefined {
  if (typeof value === 'string') return ESCAPED_CONTROL.exec(value)?.[0].charCodeAt(0);
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstControl(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = firstControl(key) ?? firstControl(item);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
