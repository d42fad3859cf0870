import { parseTimestamp } from '../api/timestamps';
import type { CleanupPage, MatchedSession, SelectionRule } from './types';

/** The fields of a listed session the selection reads (spec §2, "Session"). */
export interface ListedSession {
  id: string;
  email: string;
  message_count: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

/** How one session relates to the rule. */
export const Verdict = {
  /** Active and matching: to be closed. */
  match: 'match',
  /** Matching, but `closed_at` is set already. */
  closed: 'closed',
  /** Not matching. */
  skip: 'skip',
  /** A timestamp the rule needs could not be read: never closed on a guess. */
  unreadable: 'unreadable',
} as const;
export type Verdict = (typeof Verdict)[keyof typeof Verdict];

/**
 * Applies the rule to one session. The email is compared again (case-insensitively) although the API filters by
 * it: a server that ignored the filter must not get another user's sessions closed.
 */
export function judge(session: ListedSession, rule: SelectionRule): Verdict {
  if (rule.email !== undefined && session.email.toLowerCase() !== rule.email.toLowerCase()) return Verdict.skip;
  if (rule.updatedAtOrBefore !== undefined) {
    const updated = parseTimestamp(session.updated_at);
    if (updated === undefined) return Verdict.unreadable;
    if (updated > rule.updatedAtOrBefore) return Verdict.skip;
  }
  if (rule.createdBefore !== undefined) {
    const created = parseTimestamp(session.created_at);
    if (created === undefined) return Verdict.unreadable;
    if (created >= rule.createdBefore) return Verdict.skip;
  }
  return session.closed_at === null ? Verdict.match : Verdict.closed;
}

export function matchedSession(s: ListedSession): MatchedSession {
  return { id: s.id, email: s.email, createdAt: s.created_at, updatedAt: s.updated_at, messageCount: s.message_count };
}

export interface SelectOptions {
  rule: SelectionRule;
  /** Return the ids of the matches. @default true */
  wantIds?: boolean;
  /** Details of the first this-many matches. @default 0 */
  samples?: number;
  /** Sessions handled already (shifted onto this page by sessions added while paging). @default none */
  ignoreIds?: readonly string[];
}

/** Selects the sessions of one list page; duplicate ids within the page count once. */
export function selectPage(sessions: readonly ListedSession[], total: number, options: SelectOptions): CleanupPage {
  const seen = new Set(options.ignoreIds ?? []);
  const page: CleanupPage = { rows: sessions.length, listed: 0, total, matched: 0, matchedIds: [], alreadyClosed: 0, unreadable: 0, notMatched: 0, samples: [] };
  const wantIds = options.wantIds ?? true;
  const samples = options.samples ?? 0;
  for (const session of sessions) {
    if (seen.has(session.id)) continue;
    seen.add(session.id);
    page.listed += 1;
    const verdict = judge(session, options.rule);
    if (verdict === Verdict.closed) page.alreadyClosed += 1;
    else if (verdict === Verdict.unreadable) page.unreadable += 1;
    else if (verdict === Verdict.skip) page.notMatched += 1;
    else if (verdict === Verdict.match) {
      page.matched += 1;
      if (wantIds) page.matchedIds.push(session.id);
      if (page.samples.length < samples) page.samples.push(matchedSession(session));
    }
  }
  return page;
}
