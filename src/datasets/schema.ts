/**
 * The row schema (zod). Inputs are CSV strings or JSON values: blank cells and `null` are absent,
 * numbers are accepted for text columns, list columns take a JSON array or a `|`-separated string
 * (`tags` too: `a|b`), and `regex` is a bare pattern or `/pattern/flags`. `expected` stays one string:
 * its `|`-separated references (`\|` a literal bar) are split by the graders; a JSON array of
 * references becomes that string.
 */
import { z } from 'zod';
import { compileRegex, parseRegexLiteral } from '../grading/regex';
import { formatReferences, parseReferences } from '../grading/references';
import { isKnownColumn, type RawRecord } from './columns';
import type { IssueCollector } from './issues';
import type { DatasetRow } from '../domain/dataset';

/** Basic email shape: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

const got = (input: unknown): string => `(got ${JSON.stringify(input)})`;

function blankToUndefined(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value;
}

function toNumber(value: unknown): unknown {
  const v = blankToUndefined(value);
  return typeof v === 'string' && /^[+-]?\d+(?:\.\d+)?$/u.test(v) ? Number(v) : v;
}

function toList(value: unknown): unknown {
  const v = Array.isArray(value) ? value.map(blankToUndefined) : blankToUndefined(value);
  const items = typeof v === 'string' ? v.split('|').map((s) => s.trim()) : v;
  if (!Array.isArray(items)) return items;
  const kept = items.filter((item) => item !== undefined && item !== '');
  return kept.length === 0 ? undefined : kept;
}

/** A JSON array of references → one `|`-separated string (bars inside a reference escaped). */
function toReferences(value: unknown): unknown {
  if (!Array.isArray(value)) return blankToUndefined(value);
  const items = value.map(blankToUndefined).filter((item) => item !== undefined);
  if (!items.every((item): item is string => typeof item === 'string')) return value;
  return items.length === 0 ? undefined : formatReferences(items);
}

const text = z.preprocess(blankToUndefined, z.string({ error: (iss) => `must be text ${got(iss.input)}` }).optional());
const list = z.preprocess(toList, z.array(z.string({ error: 'must list text values' }), { error: 'must be a list (`|`-separated, or a JSON array)' }).optional());

const rowSchema = z.object({
  id: text,
  question: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : blankToUndefined(v)),
    z.string({ error: (iss) => (iss.input === undefined ? 'is missing' : `must be text ${got(iss.input)}`) }).min(1, { error: 'is empty' }),
  ),
  conversation: text,
  turn: z.preprocess(toNumber, z.number({ error: (iss) => `must be a whole number >= 1 ${got(iss.input)}` })
    .int({ error: (iss) => `must be a whole number >= 1 ${got(iss.input)}` })
    .min(1, { error: (iss) => `must be a whole number >= 1 ${got(iss.input)}` })
    .optional()),
  email: z.preprocess(blankToUndefined, z.string().regex(EMAIL_PATTERN, { error: (iss) => `is not a valid email address ${got(iss.input)}` }).optional()),
  session_id: text,
  model: text,
  response_language: text,
  ui_locale: text,
  expected: z.preprocess(toReferences, z.string({ error: (iss) => `must be text or a list of texts ${got(iss.input)}` })
    .refine((v) => parseReferences(v).length > 0, { error: 'has no reference between its `|` separators' })
    .optional()),
  must_include: list,
  include_any: list,
  must_not_include: list,
  regex: text.refine((v) => v === undefined || typeof compileRegex(parseRegexLiteral(v)) !== 'string', {
    error: (iss) => `does not compile: ${String(compileRegex(parseRegexLiteral(String(iss.input))))}`,
  }),
  min_confidence: z.preprocess(toNumber, z.number({ error: (iss) => `must be a number from 0 to 100 ${got(iss.input)}` })
    .min(0, { error: (iss) => `must be a number from 0 to 100 ${got(iss.input)}` })
    .max(100, { error: (iss) => `must be a number from 0 to 100 ${got(iss.input)}` })
    .optional()),
  tags: list,
  rubric: text,
});

/** Where a row sits in the file, and the defaults to apply. */
export interface RowContext {
  /** 0-based data row position. */
  index: number;
  defaultEmail?: string;
  /** Values for rows that leave these columns empty: a variant's answer language and locale (`variants:`). */
  rowDefaults?: RowDefaults;
}

/** Per-run defaults of the columns a variant may set; a row's own value wins, as a row's `model` does over `--model`. */
export interface RowDefaults {
  response_language?: string;
  ui_locale?: string;
}

/** The row's id: its `id` value (trimmed), else the 1-based data row number. Valid or not. */
export function recordId(values: Record<string, unknown>, index: number): string {
  const id = blankToUndefined(values.id);
  return typeof id === 'string' ? id : String(index + 1);
}

/** Validates one record; returns the row, or undefined after adding its issues. */
export function parseRow(record: RawRecord, ctx: RowContext, issues: IssueCollector): DatasetRow | undefined {
  const known: Record<string, unknown> = {};
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.values)) {
    if (isKnownColumn(name)) known[name] = value;
    else if (value !== null && value !== undefined && value !== '') metadata[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const parsed = rowSchema.safeParse(known, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const column = String(issue.path[0] ?? '');
      issues.add(record.line, column === '' ? issue.message : `\`${column}\` ${issue.message}`, column === '' ? undefined : column);
    }
    return undefined;
  }
  const fields = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Partial<DatasetRow>;
  const email = fields.email ?? ctx.defaultEmail;
  return {
    ...fields,
    id: recordId(record.values, ctx.index),
    index: ctx.index,
    line: record.line,
    question: parsed.data.question,
    ...(email === undefined ? {} : { email }),
    ...(fields.response_language === undefined && ctx.rowDefaults?.response_language !== undefined ? { response_language: ctx.rowDefaults.response_language } : {}),
    ...(fields.ui_locale === undefined && ctx.rowDefaults?.ui_locale !== undefined ? { ui_locale: ctx.rowDefaults.ui_locale } : {}),
    metadata,
  };
}
