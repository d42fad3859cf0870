import { SessionOrder, type TimestampFormat } from '../options';
import { hash32 } from '../prng';
import { stamp } from './clock';

/** How many earlier user messages a session keeps as conversation context. */
export const CONTEXT_MESSAGES = 2;

export interface SessionRecord {
  siteId: string;
  id: string;
  /** Creation sequence number (ties of `createdAt` are ordered by it). */
  seq: number;
  /** '' when the session was created by a follow-up without an email. */
  email: string;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  /** User and assistant messages together. */
  messageCount: number;
  /** The last user messages, most recent first (at most {@link CONTEXT_MESSAGES}): context for the next turn. */
  recentUserMessages: string[];
  /** Every user message so far that the service did not fail, to count duplicate submissions. */
  userMessages: Set<string>;
}

/** The session as listed by `GET .../sessions` (spec §2). M2M sessions have an empty `visitor_id`. */
export interface SessionJson {
  id: string;
  email: string;
  visitor_id: string;
  message_count: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

interface SiteSessions {
  byId: Map<string, SessionRecord>;
  /** Creation order; the list is served newest first by walking it backwards. */
  order: SessionRecord[];
  /** Same, per lower-cased email. */
  byEmail: Map<string, SessionRecord[]>;
}

export function sessionJson(s: SessionRecord, timestamps: TimestampFormat): SessionJson {
  return {
    id: s.id,
    email: s.email,
    visitor_id: '',
    message_count: s.messageCount,
    created_at: stamp(s.createdAt, timestamps),
    updated_at: stamp(s.updatedAt, timestamps),
    closed_at: s.closedAt === null ? null : stamp(s.closedAt, timestamps),
  };
}

/** The "unsorted" order: by a hash of the id (ties by creation), the same on every call, unrelated to time. */
function byIdHash(a: SessionRecord, b: SessionRecord): number {
  return hash32(a.id) - hash32(b.id) || a.seq - b.seq;
}

/** Sessions per site. Session ids are scoped to their site. */
export class SessionStore {
  private readonly sites = new Map<string, SiteSessions>();
  total = 0;
  closed = 0;
  private seq = 0;

  private site(siteId: string): SiteSessions {
    let s = this.sites.get(siteId);
    if (!s) {
      s = { byId: new Map(), order: [], byEmail: new Map() };
      this.sites.set(siteId, s);
    }
    return s;
  }

  get(siteId: string, id: string): SessionRecord | undefined {
    return this.sites.get(siteId)?.byId.get(id);
  }

  create(siteId: string, id: string, email: string, now: number): SessionRecord {
    const site = this.site(siteId);
    const session: SessionRecord = { siteId, id, seq: ++this.seq, email, createdAt: now, updatedAt: now, closedAt: null, messageCount: 0, recentUserMessages: [], userMessages: new Set() };
    site.byId.set(id, session);
    site.order.push(session);
    if (email) this.indexEmail(site, session);
    this.total++;
    return session;
  }

  /** Gives a session created without an email the first email a follow-up brings. */
  setEmail(session: SessionRecord, email: string): void {
    if (session.email || !email) return;
    session.email = email;
    this.indexEmail(this.site(session.siteId), session);
  }

  private indexEmail(site: SiteSessions, session: SessionRecord): void {
    const key = session.email.toLowerCase();
    const list = site.byEmail.get(key);
    if (list) {
      // Keep creation order even when the email arrives after later sessions were indexed.
      let i = list.length;
      while (i > 0 && (list[i - 1] as SessionRecord).seq > session.seq) i--;
      list.splice(i, 0, session);
    } else site.byEmail.set(key, [session]);
  }

  /**
   * Records a user message: count, time, context and duplicate detection. Returns true for a duplicate: a message the
   * session already had in a request the service did not fail. `failing`: this request will end `failed`, so sending
   * its message again is a re-ask, not a duplicate.
   */
  addUserMessage(session: SessionRecord, message: string, now: number, failing = false): boolean {
    const duplicate = session.userMessages.has(message);
    if (!failing) session.userMessages.add(message);
    session.recentUserMessages.unshift(message);
    session.recentUserMessages.length = Math.min(session.recentUserMessages.length, CONTEXT_MESSAGES);
    session.messageCount++;
    if (now > session.updatedAt) session.updatedAt = now;
    return duplicate;
  }

  /** Sets `closed_at` once; closing again changes nothing. */
  close(session: SessionRecord, now: number): void {
    if (session.closedAt !== null) return;
    session.closedAt = now;
    this.closed++;
  }

  /** One page in the given order (default newest first: reverse creation order). `email` matches case-insensitively. */
  list(siteId: string, email: string | undefined, limit: number, offset: number, order: SessionOrder = SessionOrder.newestFirst): { sessions: SessionRecord[]; total: number } {
    const site = this.sites.get(siteId);
    const source = !site ? [] : email === undefined ? site.order : (site.byEmail.get(email.toLowerCase()) ?? []);
    if (order === SessionOrder.oldestFirst) return { sessions: source.slice(offset, offset + limit), total: source.length };
    if (order === SessionOrder.unsorted) return { sessions: [...source].sort(byIdHash).slice(offset, offset + limit), total: source.length };
    const out: SessionRecord[] = [];
    for (let i = source.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(source[i] as SessionRecord);
    return { sessions: out, total: source.length };
  }

  /** Every session in creation order (for the state file). */
  all(): SessionRecord[] {
    return [...this.sites.values()].flatMap((s) => s.order).sort((a, b) => a.seq - b.seq);
  }

  /** Puts back a saved session (call in creation order). */
  restore(session: SessionRecord): void {
    const site = this.site(session.siteId);
    site.byId.set(session.id, session);
    site.order.push(session);
    if (session.email) this.indexEmail(site, session);
    this.total++;
    if (session.closedAt !== null) this.closed++;
    if (session.seq > this.seq) this.seq = session.seq;
  }

  clear(): void {
    this.sites.clear();
    this.total = 0;
    this.closed = 0;
    this.seq = 0;
  }
}
