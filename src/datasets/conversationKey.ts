import type { DatasetRow } from '../domain/dataset';

/** Prefix of the conversation key of rows that share a `session_id` and name no `conversation`. */
export const SESSION_KEY_PREFIX = 'session:';

/**
 * The conversation a row belongs to: its `conversation`, else, when it names a `session_id`, the rows naming the same
 * one. An API session is one conversation: rows that share a session without saying which conversation they are would
 * otherwise be asked as separate conversations in one session at once, each turn seeing the others' messages. So they
 * are one conversation, in file order (by `turn` when every row has one), asked one at a time. Undefined: a
 * single-row conversation of its own.
 */
export function conversationKeyOf(row: Pick<DatasetRow, 'conversation' | 'session_id'>): string | undefined {
  if (row.conversation !== undefined) return row.conversation;
  return row.session_id !== undefined ? `${SESSION_KEY_PREFIX}${row.session_id}` : undefined;
}

/** How a message names a conversation: `conversation "c1"`, or `the conversation of \`session_id\` "s1"`. */
export function conversationName(key: string): string {
  if (!key.startsWith(SESSION_KEY_PREFIX)) return `conversation ${JSON.stringify(key)}`;
  return `the conversation of \`session_id\` ${JSON.stringify(key.slice(SESSION_KEY_PREFIX.length))}`;
}
