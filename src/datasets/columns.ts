/** The dataset columns the runner understands, and what readers share. */
import type { Hash } from 'node:crypto';
import type { IssueCollector } from './issues';

/** Known columns; any other column is kept in the row's `metadata`. */
export const KNOWN_COLUMNS = [
  'id', 'question', 'conversation', 'turn', 'email', 'session_id', 'model', 'response_language', 'ui_locale',
  'expected', 'must_include', 'include_any', 'must_not_include', 'regex', 'min_confidence', 'tags', 'rubric',
] as const;
export type KnownColumn = (typeof KNOWN_COLUMNS)[number];

/** Columns that decide what is asked, and how: all a backfill reads (the others grade an answer). */
export const ASKING_COLUMNS = [
  'id', 'question', 'conversation', 'turn', 'email', 'session_id', 'model', 'response_language', 'ui_locale',
] as const satisfies readonly KnownColumn[];

const KNOWN = new Set<string>(KNOWN_COLUMNS);

/** A header name trimmed; known columns match case-insensitively (`Question` → `question`). */
export function canonicalColumn(name: string): string {
  const trimmed = name.trim();
  const lower = trimmed.toLowerCase();
  return KNOWN.has(lower) ? lower : trimmed;
}

export function isKnownColumn(name: string): name is KnownColumn {
  return KNOWN.has(name);
}

/** One data record as read, before validation: values keyed by canonical column name. */
export interface RawRecord {
  /** 1-based line where the record starts. */
  line: number;
  values: Record<string, unknown>;
}

/** State a reader shares with the pass that drives it. */
export interface ReaderContext {
  file: string;
  /** Fed with every byte read. */
  hash: Hash;
  issues: IssueCollector;
  /** Columns seen, in first-seen order. */
  columns: string[];
  /** Called once per column when it is first seen: on the header line of a CSV file, on the first JSONL line naming it. */
  onColumn?: (name: string, line: number) => void;
  /** Set to false when reading stopped early: `hash` then does not cover the whole file. */
  complete: boolean;
}
