/**
 * One validated dataset row, after defaults are applied. Shared by the dataset readers,
 * the workflows (as part of a work page) and the reports, so it stays plain JSON.
 */
export interface DatasetRow {
  /** `id` column, or the 1-based data row number when the column is absent or empty. Unique in a dataset. */
  id: string;
  /** 0-based position of the row among the data rows of the file (dataset order). */
  index: number;
  /** 1-based line in the file where the row starts (for error messages and reports). */
  line: number;
  question: string;
  /**
   * Rows sharing a conversation form one session; absent means a single-turn conversation of its own, unless other
   * rows without one name the same `session_id` (they are one conversation then, src/datasets/conversationKey.ts).
   */
  conversation?: string;
  /** Order inside a conversation; absent means file order. */
  turn?: number;
  email?: string;
  session_id?: string;
  model?: string;
  response_language?: string;
  ui_locale?: string;
  /** Reference answer. */
  expected?: string;
  /** Every phrase must appear (`|`-separated in CSV). */
  must_include?: string[];
  /** At least one phrase must appear: alternative reference answers. */
  include_any?: string[];
  must_not_include?: string[];
  regex?: string;
  min_confidence?: number;
  tags?: string[];
  /** Criteria for an LLM judge (`llm-rubric`), e.g. "mentions the 14-day refund window". */
  rubric?: string;
  /** Columns the schema does not know, kept verbatim. */
  metadata: Record<string, string>;
  /** With `--repeat N` (N > 1): the dataset row's own id (`id` is then `<baseId>#r<repeat>` for repeats after the first). */
  baseId?: string;
  /** With `--repeat N` (N > 1): which repeat this is, 1..N. */
  repeat?: number;
  /** A confirming answer of a regressed row (`--confirm K`): which one, 1..K (src/datasets/confirm.ts). */
  confirm?: number;
}

/** One conversation: the rows that run in order in one API session. */
export interface WorkUnit {
  /** The conversation key (`session:<session_id>` for rows that share only a session), or `row:<id>` for a single-turn row. */
  key: string;
  rows: DatasetRow[];
}

/** A problem with the input, precise enough to fix without opening a debugger. */
export interface DatasetIssue {
  file: string;
  /** 1-based line of the offending row (0 when the problem is with the file as a whole). */
  line: number;
  /** Column name, when the problem is with one field. */
  column?: string;
  /**
   * 1-based character (code point) in the line, when the problem is one character: an invalid UTF-8 byte (counted as
   * one character) or a control character. A byte order mark at the start of the file is not counted.
   */
  character?: number;
  message: string;
}
