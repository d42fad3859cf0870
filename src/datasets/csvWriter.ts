/**
 * The one CSV writer of every CSV file sitechat writes (a backfill's answers, a labels export, the benches' inputs):
 * RFC 4180 quoting, and every text cell made safe to open in a spreadsheet (OWASP "CSV injection"). A text that starts
 * with `=`, `+`, `-`, `@`, tab or carriage return is what Excel, LibreOffice and Sheets run as a formula
 * (`=HYPERLINK(…)`, `=cmd|' /c calc'!A0`, `@SUM(…)`): such a cell gets a leading `'`, which a spreadsheet reads as
 * "this is text". {@link csvCellText} takes that `'` off again, so a file read back by sitechat (a labels import)
 * gives the very text that was written.
 */

/** The first characters a spreadsheet reads as the start of a formula (OWASP's list: tab and CR included). */
const FORMULA_START = /^'*[=+\-@\t\r]/u;
/** A cell {@link csvCell} neutralised: its `'`, then the text (itself apostrophes, then a formula start). */
const NEUTRALISED = /^'+[=+\-@\t\r]/u;

/**
 * A text that starts with a formula character, or with apostrophes and then one, gets one more `'` in front. The
 * apostrophes count too, so the `'` added can always be told from the text: `'=x` is written `''=x` and read back
 * as `'=x`, and {@link csvCellText} undoes exactly what this did.
 */
function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text of a cell {@link csvCell} wrote: the `'` it put before a formula start taken off, anything else as it is. */
export function csvCellText(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

/**
 * One CSV cell. Text is neutralised ({@link neutraliseFormula}), then quoted (quotes doubled) when it holds a quote,
 * the delimiter or a line break, or starts or ends with white space (which some readers trim). A number sitechat
 * computed itself (a latency, a line number) is written as it is: it is data, not text a site or a person chose.
 * @param delimiter the file's field separator. @default ','
 */
export function csvCell(value: string | number | undefined, delimiter = ','): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = neutraliseFormula(value);
  return /["\r\n]|^\s|\s$/u.test(text) || text.includes(delimiter) ? `"${text.replace(/"/gu, '""')}"` : text;
}

/** One CSV line (with its line feed) of `values`, each through {@link csvCell}. @param delimiter @default ',' */
export function csvLine(values: readonly (string | number | undefined)[], delimiter = ','): string {
  return `${values.map((v) => csvCell(v, delimiter)).join(delimiter)}\n`;
}
