/**
 * Checks across rows: unique ids, and per conversation unique turns, one session_id, and (when asked) an email for
 * the row that opens a new session (the API requires one when no session_id is given). A session is one
 * conversation: rows sharing a `session_id` without a `conversation` are one (conversationKey.ts), and two
 * conversations never share a session. With feedback on, session ids must be UUIDs.
 */
import { isUuid } from '../api/ids';
import { conversationKeyOf, conversationName, SESSION_KEY_PREFIX } from './conversationKey';
import type { IssueCollector } from './issues';
import { kib, RowLimit, sizeText, slimBytes } from './limits';
import type { DatasetRow } from '../domain/dataset';

/** Shown when a new session has no email: the fix names both ways to give one. */
export const EMAIL_REQUIRED = '`email` is required for a new session (give an email column or --email)';

/** What is checked beyond the rows themselves. */
export interface CheckerOptions {
  /** A row opening a session without `session_id` needs an email. @default false */
  requireEmail?: boolean;
  /**
   * Every `session_id` must be a UUID: the run sends feedback, and the API may refuse feedback for ids that are not
   * (spec §1 and §7: 400 `feedback must be 'good' or 'bad'`), after every question was asked. @default false
   */
  uuidSessionIds?: boolean;
}

/** Shown for a `session_id` that is not a UUID when the run sends feedback: the two ways out. */
export function notUuidMessage(sessionId: string): string {
  return `\`session_id\` ${JSON.stringify(sessionId)} is not a UUID, and the API may refuse feedback for a session id that is not one ` +
    '(it answers 400 `feedback must be \'good\' or \'bad\'`): use UUIDs as session ids, or send no feedback (--feedback none)';
}

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
  /** Each session id, with the conversation that first named it. */
  private readonly sessions = new Map<string, { key: string; line: number }>();
  private singles = 0;
  private readonly requireEmail: boolean;
  private readonly uuidSessionIds: boolean;

  constructor(private readonly issues: IssueCollector, options: CheckerOptions = {}) {
    this.requireEmail = options.requireEmail ?? false;
    this.uuidSessionIds = options.uuidSessionIds ?? false;
  }

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
    if (row.session_id !== undefined && this.uuidSessionIds && !isUuid(row.session_id)) this.issues.add(row.line, notUuidMessage(row.session_id), 'session_id');
    const key = conversationKeyOf(row);
    if (key === undefined) {
      this.singles += 1;
      if (this.requireEmail && row.email === undefined) this.issues.add(row.line, EMAIL_REQUIRED, 'email');
      return;
    }
    for (const reserved of ['row:', SESSION_KEY_PREFIX]) {
      if (row.conversation?.startsWith(reserved)) {
        this.issues.add(row.line, `\`conversation\` must not start with ${JSON.stringify(reserved)} (reserved for the runner's own keys)`, 'conversation');
      }
    }
    if (row.session_id !== undefined) this.checkSessionOwner(row.session_id, key, row.line);
    this.addTurn(key, row, bytes);
  }

  /** One session, one conversation: a session id named by two conversations would mix their turns. */
  private checkSessionOwner(sessionId: string, key: string, line: number): void {
    const owner = this.sessions.get(sessionId);
    if (owner === undefined) this.sessions.set(sessionId, { key, line });
    else if (owner.key !== key) {
      const other = owner.key.startsWith(SESSION_KEY_PREFIX) ? 'rows without a `conversation`' : conversationName(owner.key);
      this.issues.add(line, `\`session_id\` ${JSON.stringify(sessionId)} is also the session of ${other} (line ${owner.line}); ` +
        'an API session holds one conversation: give these rows the same `conversation`, or another session id', 'session_id');
    }
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
        this.issues.add(state.firstWithoutTurn, `\`turn\` is missing while other rows of ${conversationName(key)} have one`, 'turn');
      }
      if (this.requireEmail && state.session === undefined && !state.opener.hasEmail) this.issues.add(state.opener.line, EMAIL_REQUIRED, 'email');
      if (state.bytes > RowLimit.pageBytes) {
        this.issues.add(state.firstLine, `${conversationName(key)} is ${kib(state.bytes)} without its metadata columns; the limit is ${kib(RowLimit.pageBytes)} (split it into shorter conversations)`, 'conversation');
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
        this.issues.add(row.line, `\`turn\` ${row.turn} of ${conversationName(key)} is also on line ${clash}`, 'turn');
      } else state.turns.set(row.turn, row.line);
    }
    if (row.session_id === undefined) return;
    if (state.session === undefined) state.session = { value: row.session_id, line: row.line };
    else if (state.session.value !== row.session_id) {
      const { value, line } = state.session;
      this.issues.add(row.line, `\`session_id\` ${JSON.stringify(row.session_id)} conflicts with ${JSON.stringify(value)} on line ${line} in ${conversationName(key)}`, 'session_id');
    }
  }
}
