/**
 * Canary secrets: a distinctive mark planted in the value of a secret-bearing variable, and the forms in which a leak
 * of it would show in a file, a history, a dump or an output: as it is, URL-encoded, in base64 at any offset of a
 * longer encoded text (a payload's `data`), and, for key bytes, in hex.
 */
import { randomBytes } from 'node:crypto';

export interface Canary {
  /** The variable whose value holds the mark. */
  variable: string;
  /** The secret part of the value: a text mark (for a URL, its secret path; for a key list, not the ids) or key bytes. */
  mark: string | Buffer;
  /** Why the variable carries a secret, in one line. */
  why: string;
}

/** A mark no file holds by chance: 16 random hex digits after a readable prefix. */
export function canaryMark(prefix: string): string {
  return `${prefix}-${randomBytes(8).toString('hex')}`;
}

/**
 * The part of `bytes`' base64 that is the same wherever they start in a longer encoded stream (offset 0, 1 or 2 of a
 * three-byte group): without the characters shared with the bytes before them, and the last partial group. Both the
 * standard and the URL-safe alphabet.
 */
export function base64AtAnyOffset(bytes: Buffer): string[] {
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const stable = encoded.slice([0, 2, 3][shift], Math.floor((shift + bytes.length) / 3) * 4);
    return [stable, stable.replace(/\+/gu, '-').replace(/\//gu, '_')];
  });
}

interface Form {
  name: string;
  text: string;
  /** Compared case-insensitively (percent-encoding's hex digits, hex). */
  caseless?: boolean;
}

/** A text as it is, URL-encoded, and in base64 at any offset. */
function textForms(text: string): Form[] {
  const forms: Form[] = [{ name: 'as it is', text: Buffer.from(text, 'utf8').toString('latin1') }];
  if (encodeURIComponent(text) !== text) forms.push({ name: 'URL-encoded', text: encodeURIComponent(text), caseless: true });
  return [...forms, ...base64AtAnyOffset(Buffer.from(text, 'utf8')).map((b) => ({ name: 'base64', text: b }))];
}

/** Key bytes: as they are (a binary file), in hex, in base64 at any offset, and their base64 text as a text. */
function formsOf(mark: string | Buffer): Form[] {
  if (typeof mark === 'string') return textForms(mark);
  return [
    { name: 'as it is', text: mark.toString('latin1') },
    { name: 'hex', text: mark.toString('hex'), caseless: true },
    ...base64AtAnyOffset(mark).map((b) => ({ name: 'base64', text: b })),
    ...textForms(mark.toString('base64')).map((f) => ({ ...f, name: `its base64, ${f.name}` })),
  ];
}

/** Each canary found in `content` (text, or bytes such as a database file), as `VARIABLE (form)`. */
export function canariesIn(content: string | Buffer, canaries: readonly Canary[]): string[] {
  // latin1: one character per byte, so a mark's bytes match wherever they are, in text or in a binary file.
  const text = typeof content === 'string' ? Buffer.from(content, 'utf8').toString('latin1') : content.toString('latin1');
  let lower: string | undefined;
  const found = new Set<string>();
  for (const canary of canaries) {
    for (const form of formsOf(canary.mark)) {
      const hit = form.caseless ? (lower ??= text.toLowerCase()).includes(form.text.toLowerCase()) : text.includes(form.text);
      if (hit) found.add(`${canary.variable} (${form.name})`);
    }
  }
  return [...found];
}
