/**
 * Checks across rows: unique ids, and per conversation unique turns, one session_id, and (when asked) an email for
 * the row that opens a new session (the API requires one when no session_id is given).
 */
import type { IssueCollector } from './issues';
import { kib, RowLimit, sizeText, slimBytes } from './limits';
import type { DatasetRow } from './types';

/** Shown when a new session has no email: the fix names both ways to give one. */
export const EMAIL_REQUIRED = '`email` is required for a new session (give an email column or --email)';

interface ConversationState {
  /** Rows with and without `turn`, and where the first one without was. */
  withTurn: number;
  firstWithoutTurn?: number;
  turns: Map<number, number>;
  session?: { value: string; line: number };
  /** The row that opens the session: lowest turn, else first in the file. */
  opener: { turn?: number; line: number; hasEmail: boolean };
  /** Its rows' size without metadata: a conversation is never split across pages of the plan. */
  bytes: number;
  firstLine: number;
}

/** Feeds on valid rows in file order; `finish()` reports what needs the whole file. */
export class DatasetChecker {
  private readonly ids = new Map<string, number>();
  private readonly conversations = new Map<string, ConversationState>();
  private singles = 0;

  /** @param requireEmail whether a row opening a session without `session_id` needs an email. @default false */
  constructor(private readonly issues: IssueCollector, private readonly requireEmail = false) {}

  /** Conversations seen so far, single-row ones included (= work units). */
  get conversationCount(): number {
    return this.singles + this.conversations.size;
  }

  /** Every record's id, valid row or not, so that duplicates are found either way. */
  addId(id: string, line: number): void {
    const previous = this.ids.get(id);
    if (previous !== undefined) this.issues.add(line, `\`id\` ${JSON.stringify(id)} is also used on line ${previous}`, 'id');
    else this.ids.set(id, line);
  }

  /** A valid row, in file order. */
  add(row: DatasetRow): void {
    const bytes = this.checkSize(row);
    this.checkMetadata(row);
    if (row.conversation === undefined) {
      this.singles += 1;
      if (this.requireEmail && row.email === undefined && row.session_id === undefined) this.issues.add(row.line, EMAIL_REQUIRED, 'email');
      return;
    }
    if (row.conversation.startsWith('row:')) {
      this.issues.add(row.line, '`conversation` must not start with "row:" (reserved for single-row units)', 'conversation');
    }
    this.addTurn(row.conversation, row, bytes);
  }

  /** Rows travel through Temporal without their metadata columns, and must stay far under its payload limits. */
  private checkSize(row: DatasetRow): number {
    if (row.question.length > RowLimit.questionChars) {
      this.issues.add(row.line, `\`question\` has ${row.question.length} characters; the limit is ${RowLimit.questionChars} (docs/api-decisions-client.md)`, 'question');
    }
    const bytes = slimBytes(row);
    if (bytes > RowLimit.rowBytes) {
      this.issues.add(row.line, `the row is ${kib(bytes)} without its metadata columns; the limit is ${kib(RowLimit.rowBytes)} (question, references, rubric and assertions; put long context in a column of its own, which is kept as metadata)`);
    }
    return bytes;
  }

  /** Metadata columns stay out of Temporal, but not out of memory: each row's are held whole by every step. */
  private checkMetadata(row: DatasetRow): void {
    const columns = Object.entries(row.metadata);
    if (columns.length === 0) return;
    const bytes = Buffer.byteLength(JSON.stringify(row.metadata), 'utf8');
    if (bytes <= RowLimit.metadataBytes) return;
    const [largest] = columns.sort((a, b) => b[1].length - a[1].length)[0] as [string, string];
    this.issues.add(row.line, `the row's metadata columns are ${sizeText(bytes)} as JSON (the largest is \`${largest}\`); the limit is ${sizeText(RowLimit.metadataBytes)}`, largest);
  }

  finish(): void {
    for (const [key, state] of this.conversations) {
      if (state.withTurn > 0 && state.firstWithoutTurn !== undefined) {
        this.issues.add(state.firstWithoutTurn, `\`turn\` is missing while other rows of conversation ${JSON.stringify(key)} have one`, 'turn');
      }
      if (this.requireEmail && state.session === undefined && !state.opener.hasEmail) this.issues.add(state.opener.line, EMAIL_REQUIRED, 'email');
      if (state.bytes > RowLimit.pageBytes) {
        this.issues.add(state.firstLine, `conversation ${JSON.stringify(key)} is ${kib(state.bytes)} without its metadata columns; the limit is ${kib(RowLimit.pageBytes)} (split it into shorter conversations)`, 'conversation');
      }
    }
  }

  private addTurn(key: string, row: DatasetRow, bytes: number): void {
    const hasEmail = row.email !== undefined;
    let state = this.conversations.get(key);
    if (state === undefined) {
      state = { withTurn: 0, turns: new Map(), opener: { turn: row.turn, line: row.line, hasEmail }, bytes: 0, firstLine: row.line };
      this.conversations.set(key, state);
    } else if (row.turn !== undefined && (state.opener.turn === undefined || row.turn < state.opener.turn)) {
      state.opener = { turn: row.turn, line: row.line, hasEmail };
    }
    state.bytes += bytes;
    if (row.turn === undefined) state.firstWithoutTurn ??= row.line;
    else {
      state.withTurn += 1;
      const clash = state.turns.get(row.turn);
      if (clash !== undefined) {
        this.issues.add(row.line, `\`turn\` ${row.turn} of conversation ${JSON.stringify(key)} is also on line ${clash}`, 'turn');
      } else state.turns.set(row.turn, row.line);
    }
    if (row.session_id === undefined) return;
    if (state.session === undefined) state.session = { value: row.session_id, line: row.line };
    else if (state.session.value !== row.session_id) {
      const { value, line } = state.session;
      this.issues.add(row.line, `\`session_id\` ${JSON.stringify(row.session_id)} conflicts with ${JSON.stringify(value)} on line ${line} in conversation ${JSON.stringify(key)}`, 'session_id');
    }
  }
}
