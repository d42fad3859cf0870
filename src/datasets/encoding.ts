/**
 * Checks on a dataset's bytes as they stream: valid UTF-8, and no control characters but tab, line feed and the
 * carriage return of a CRLF line ending. Decoding alone would let both through: a Latin-1 `é` becomes U+FFFD in the
 * question sent to the API, and a NUL is sent as is (and PostgreSQL refuses it in the results store). Problems name
 * the line and the character where they are, so the file can be fixed in an editor.
 */
import { Transform } from 'node:stream';

/** A problem with one character: 1-based line, 1-based character (code point) in that line. */
export interface TextProblem {
  line: number;
  character: number;
  message: string;
}

const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const BOM = 0xfeff;

const CONTROL_NAMES: Record<number, string> = { 0x00: 'NUL', 0x08: 'backspace', 0x0b: 'vertical tab', 0x0c: 'form feed', 0x0d: 'carriage return', 0x1b: 'escape' };

/** `control character U+001B (escape)`. */
export function controlName(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CONTROL_NAMES[code];
  return name === undefined ? `control character ${hex}` : `control character ${hex} (${name})`;
}

const ALLOWED = 'only tab, line feed and CRLF line endings may appear in a dataset';

/**
 * The characters {@link TextCheck} refuses in a file, as a pattern over text: a control character but tab and line
 * feed, a carriage return without a line feed after it, and a lone UTF-16 surrogate (which no valid UTF-8 file can
 * hold). For text typed elsewhere (a review note) that later goes into a file sitechat reads back (a labels export),
 * so it is held to the rules of that file's import.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
export const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|\r(?!\n)|[\ud800-\udfff]/u;

/**
 * What {@link FORBIDDEN_CHARACTER} finds first in `text`, named (`control character U+001B (escape)`), with its
 * 1-based position in code points; undefined when the text may go into a dataset or label file as it is.
 */
export function forbiddenCharacter(text: string): { character: number; name: string } | undefined {
  const found = FORBIDDEN_CHARACTER.exec(text);
  if (!found) return undefined;
  const code = found[0].charCodeAt(0);
  const name = code >= 0xd800 ? `a lone surrogate U+${code.toString(16).toUpperCase()} (not valid Unicode)` : controlName(code);
  return { character: [...text.slice(0, found.index)].length + 1, name };
}

/**
 * Fed the file's bytes in order, in chunks of any size; reports through `report` as it goes. Invalid UTF-8 is
 * reported once, at the first bad byte (a file in another encoding has them everywhere, and one fix covers all);
 * control characters once per line.
 */
export class TextCheck {
  private line = 1;
  /** The character the next byte starts. */
  private character = 1;
  private offset = 0;
  /** UTF-8 decoding (the WHATWG decoder's states): continuation bytes still needed, and the range of the next one. */
  private needed = 0;
  private lower = 0x80;
  private upper = 0xbf;
  private codePoint = 0;
  private lead = { byte: 0, offset: 0 };
  /** Where a carriage return waits for its line feed. */
  private carriageReturn?: { line: number; character: number };
  private invalidReported = false;
  private controlReportedLine = 0;

  constructor(private readonly report: (problem: TextProblem) => void) {}

  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i] as number;
      if (this.carriageReturn !== undefined && byte !== LF) this.loneCarriageReturn();
      this.carriageReturn = undefined;
      if (this.needed > 0) {
        if (byte >= this.lower && byte <= this.upper) {
          this.lower = 0x80;
          this.upper = 0xbf;
          this.codePoint = (this.codePoint << 6) | (byte & 0x3f);
          this.needed -= 1;
          // A byte order mark opening the file is no character an editor shows.
          if (this.needed === 0 && !(this.codePoint === BOM && this.lead.offset === 0)) this.character += 1;
          this.offset += 1;
          continue;
        }
        // The sequence breaks off: it is one bad character, and this byte is read afresh.
        this.invalid();
      }
      if (byte < 0x80) this.ascii(byte);
      else if (byte >= 0xc2 && byte <= 0xdf) this.begin(byte, 1, byte & 0x1f);
      else if (byte >= 0xe0 && byte <= 0xef) {
        this.begin(byte, 2, byte & 0x0f);
        if (byte === 0xe0) this.lower = 0xa0; // overlong
        if (byte === 0xed) this.upper = 0x9f; // UTF-16 surrogates
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        this.begin(byte, 3, byte & 0x07);
        if (byte === 0xf0) this.lower = 0x90; // overlong
        if (byte === 0xf4) this.upper = 0x8f; // above U+10FFFF
      } else {
        this.lead = { byte, offset: this.offset };
        this.invalid();
      }
      this.offset += 1;
    }
  }

  /** The end of the file: a character or a CRLF cut short there is reported. */
  end(): void {
    if (this.carriageReturn !== undefined) this.loneCarriageReturn();
    this.carriageReturn = undefined;
    if (this.needed > 0) this.invalid('the file ends inside a UTF-8 character');
  }

  private ascii(byte: number): void {
    if (byte === LF) {
      this.line += 1;
      this.character = 1;
      return;
    }
    if (byte === CR) this.carriageReturn = { line: this.line, character: this.character };
    else if (byte < 0x20 && byte !== TAB) this.control(byte, this.line, this.character);
    this.character += 1;
  }

  private begin(byte: number, needed: number, bits: number): void {
    this.needed = needed;
    this.codePoint = bits;
    this.lead = { byte, offset: this.offset };
  }

  private invalid(why?: string): void {
    this.needed = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
    if (!this.invalidReported) {
      this.invalidReported = true;
      const byte = `0x${this.lead.byte.toString(16).toUpperCase().padStart(2, '0')}`;
      this.report({
        line: this.line,
        character: this.character,
        message: `${why ?? `not valid UTF-8 (byte ${byte})`}: save the file as UTF-8; only the first bad byte is shown`,
      });
    }
    this.character += 1;
  }

  private loneCarriageReturn(): void {
    const at = this.carriageReturn ?? { line: this.line, character: this.character };
    if (at.line === this.controlReportedLine) return;
    this.controlReportedLine = at.line;
    this.report({ ...at, message: `${controlName(CR)} without a line feed after it: save the file with LF or CRLF line endings` });
  }

  private control(code: number, line: number, character: number): void {
    if (line === this.controlReportedLine) return;
    this.controlReportedLine = line;
    this.report({ line, character, message: `${controlName(code)}: ${ALLOWED}` });
  }
}

/** A pass-through stream that feeds every byte to `check`, and ends it with the stream. */
export function textCheckTap(check: TextCheck): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      check.push(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      check.end();
      callback();
    },
  });
}
