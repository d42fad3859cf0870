/**
 * Text echoed to a terminal that may hold user data (dataset headers and values, answers, error strings from the
 * API): control characters are shown escaped, never written raw, so a value cannot move the cursor, recolour or
 * clear the screen, set the window title (ESC, CSI, OSC), overwrite a line (CR) or reorder text (bidi overrides).
 */

/**
 * C0 controls but tab and line feed, DEL, C1 controls, and the Unicode bidi embedding, override and isolate
 * marks plus the line/paragraph separators.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this regex's purpose
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `\u001b` for ESC and so on: readable, and still valid inside a JSON string. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
