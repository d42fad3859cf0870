/**
 * Label files, so a team can keep golden labels in git: `sitechat labels export|import FILE.csv|jsonl`. Read with the
 * dataset readers (encoding, control characters, CSV syntax and line numbers are checked the same way), validated
 * whole before anything is written.
 *
 * Columns (CSV) or fields (JSONL): key, site, question, references, rubric, answer, verdict, note, by, at. In CSV,
 * references are `|`-separated as in datasets (`\|` a literal bar); in JSONL a list of strings (or one such string).
 * A CSV export is safe to open in a spreadsheet: a cell that starts with `= + - @`, tab or CR gets a leading `'`, which
 * an import takes off again, so export → import gives the labels back unchanged.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { ReaderContext, RawRecord } from '../datasets/columns';
import { readCsv } from '../datasets/csv';
import { csvCellText, csvLine } from '../datasets/csvWriter';
import { datasetFormat, ensureReadableFile, type DatasetFormat } from '../datasets/format';
import { IssueCollector } from '../datasets/issues';
import { readJsonl } from '../datasets/jsonl';
import type { DatasetIssue } from '../domain/dataset';
import { formatReferences, parseReferences } from '../grading/references';
import { labelKey, normalizeAnswerForLabel } from './key';
import { LabelVerdict, type Label } from '../domain/label';

/** The columns of a label file, in the order export writes them. */
export const LABEL_COLUMNS = ['key', 'site', 'question', 'references', 'rubric', 'answer', 'verdict', 'note', 'by', 'at'] as const;
type LabelColumn = (typeof LABEL_COLUMNS)[number];
const KNOWN = new Set<string>(LABEL_COLUMNS);
/** Columns a label cannot do without (the others may be absent or empty). */
const REQUIRED: readonly LabelColumn[] = ['site', 'question', 'answer', 'verdict'];

export interface LabelFileRead {
  format: DatasetFormat;
  /** Every label of the file, in file order; empty when there are issues. */
  labels: Label[];
  /** At most `maxIssues` problems, in file order. */
  issues: DatasetIssue[];
  issueCount: number;
}

export interface ReadLabelOptions {
  delimiter?: string;
  /** `at` for labels that give none. @default now */
  now?: string;
  /** @default 1000 */
  maxIssues?: number;
}

/**
 * Reads and validates a whole label file. Problems name the file, line and column; when there is any, `labels` is
 * empty, so a caller never writes part of a file. Held in memory: label files are written by people, a few thousand
 * lines at most.
 */
export async function readLabelFile(file: string, options: ReadLabelOptions = {}): Promise<LabelFileRead> {
  const format = datasetFormat(file);
  await ensureReadableFile(file);
  const issues = new IssueCollector(file, options.maxIssues);
  const ctx: ReaderContext = { file, hash: createHash('sha256'), issues, columns: [], complete: true };
  const records = format === 'csv' ? readCsv(file, ctx, options.delimiter) : readJsonl(file, ctx);
  const now = options.now ?? new Date().toISOString();
  const source = `import ${basename(file)}`;
  const labels: Label[] = [];
  const lineOfKey = new Map<string, number>();
  let headerChecked = false;
  for await (const record of records) {
    if (format === 'csv' && !headerChecked) {
      headerChecked = true;
      checkColumns(ctx.columns, record.line - 1, issues);
    }
    const label = toLabel(record, issues, format, now, source);
    if (label === undefined) continue;
    const earlier = lineOfKey.get(label.key);
    if (earlier !== undefined) {
      issues.add(record.line, `the same label as line ${earlier} (site, question, references, rubric and answer): keep one`, 'key');
      continue;
    }
    lineOfKey.set(label.key, record.line);
    labels.push(label);
  }
  if (format === 'csv' && !headerChecked && ctx.columns.length > 0) checkColumns(ctx.columns, 1, issues);
  if (labels.length === 0 && issues.total === 0) issues.add(0, 'the file has no labels');
  return { format, labels: issues.total === 0 ? labels : [], issues: issues.issues, issueCount: issues.total };
}

/** A CSV header: unknown columns (a typo would silently drop a field) and missing required ones. */
function checkColumns(columns: readonly string[], line: number, issues: IssueCollector): void {
  const names = columns.map((c) => c.toLowerCase());
  for (const name of names) if (!KNOWN.has(name)) issues.add(Math.max(line, 1), `unknown column \`${name}\`: a label file has ${LABEL_COLUMNS.join(', ')}`, name);
  // `question` is checked by the CSV reader itself.
  for (const name of REQUIRED) if (name !== 'question' && !names.includes(name)) issues.add(Math.max(line, 1), `the header has no \`${name}\` column`, name);
}

function toLabel(record: RawRecord, issues: IssueCollector, format: DatasetFormat, now: string, source: string): Label | undefined {
  const { line } = record;
  // A CSV cell is read as export wrote it: the `'` put before a formula start is taken off (csvWriter.ts).
  const values = new Map(Object.entries(record.values).map(([k, v]) => [k.toLowerCase(), format === 'csv' && typeof v === 'string' ? csvCellText(v) : v]));
  const before = issues.total;
  const problem = (column: string, message: string): void => issues.add(line, `\`${column}\` ${message}`, column);
  if (format === 'jsonl') for (const name of values.keys()) if (!KNOWN.has(name)) problem(name, `is not a label field (fields: ${LABEL_COLUMNS.join(', ')})`);

  const text = (column: LabelColumn): string | undefined => {
    const v = values.get(column);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      problem(column, `must be a string (got ${JSON.stringify(v)})`);
      return undefined;
    }
    return v;
  };
  for (const column of REQUIRED) if (values.get(column) === undefined || values.get(column) === null) problem(column, 'is missing');

  const site = text('site')?.trim();
  if (site === '') problem('site', 'is empty');
  const question = text('question');
  if (question !== undefined && question.trim() === '') problem('question', 'is empty');
  const answer = text('answer');
  const verdict = text('verdict')?.trim().toLowerCase();
  if (verdict !== undefined && verdict !== LabelVerdict.pass && verdict !== LabelVerdict.fail) problem('verdict', `must be pass or fail (got ${JSON.stringify(verdict)})`);
  const references = referencesOf(values.get('references'), (m) => problem('references', m));
  const rubric = optional(text('rubric'));
  const note = optional(text('note'));
  const by = optional(text('by')?.trim());
  const atGiven = optional(text('at')?.trim());
  const at = atGiven === undefined ? now : Number.isNaN(Date.parse(atGiven)) ? undefined : new Date(atGiven).toISOString();
  if (at === undefined) problem('at', `must be a date and time, e.g. 2026-11-23T10:00:00Z (got ${JSON.stringify(atGiven)})`);
  const givenKey = optional(text('key')?.trim());
  if (issues.total > before || !site || question === undefined || answer === undefined || !verdict || at === undefined) return undefined;

  const key = labelKey({ siteId: site, question, references, rubric, answer });
  if (givenKey !== undefined && givenKey !== key) {
    problem('key', `does not match the label's site, question, references, rubric and answer (they give ${key}): leave \`key\` empty to compute it`);
    return undefined;
  }
  return {
    key, siteId: site, question, references, ...(rubric ? { rubric } : {}), answer: normalizeAnswerForLabel(answer),
    verdict: verdict as LabelVerdict, ...(note ? { note } : {}), ...(by ? { by } : {}), at, source,
  };
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function referencesOf(value: unknown, problem: (message: string) => void): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return parseReferences(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim()).filter((v) => v !== '');
  problem(`must be a list of strings, or one string with \`|\` between references (got ${JSON.stringify(value)})`);
  return [];
}

/** A label as a JSONL line of an export (field names as in CSV). */
export function labelJsonLine(label: Label): string {
  const { key, siteId, question, references, rubric, answer, verdict, note, by, at } = label;
  return `${JSON.stringify({ key, site: siteId, question, references, ...(rubric ? { rubric } : {}), answer, verdict, ...(note ? { note } : {}), ...(by ? { by } : {}), at })}\n`;
}

/** The header line of a CSV export. */
export function labelCsvHeader(delimiter = ','): string {
  return csvLine(LABEL_COLUMNS, delimiter);
}

/** A label as a CSV line of an export, through the one CSV writer (a formula start neutralised, see csvWriter.ts). */
export function labelCsvLine(label: Label, delimiter = ','): string {
  const cells: Record<LabelColumn, string> = {
    key: label.key, site: label.siteId, question: label.question, references: formatReferences(label.references), rubric: label.rubric ?? '',
    answer: label.answer, verdict: label.verdict, note: label.note ?? '', by: label.by ?? '', at: label.at,
  };
  return csvLine(LABEL_COLUMNS.map((c) => cells[c]), delimiter);
}
