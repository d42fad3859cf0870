import { selectPage, type ListedSession } from '../../../src/cleanup/select';
import type { CleanupPorts } from '../../../src/cleanup/loop';
import type { CleanupPage, CleanupPageInput, CloseFailure } from '../../../src/cleanup/types';

export const NOW = Date.parse('2026-03-01T00:00:00Z');
export const DAY = 86_400_000;

export interface FakeSession extends ListedSession {
  closed_at: string | null;
}

export function session(id: string, opts: { idleDays?: number; ageDays?: number; email?: string; closed?: boolean } = {}): FakeSession {
  const updated = NOW - (opts.idleDays ?? 0) * DAY;
  const created = NOW - (opts.ageDays ?? opts.idleDays ?? 0) * DAY;
  return {
    id, email: opts.email ?? 'user@example.com', message_count: 2,
    created_at: new Date(created).toISOString(), updated_at: new Date(updated).toISOString(),
    closed_at: opts.closed ? new Date(NOW - DAY).toISOString() : null,
  };
}

export interface FakeSiteOptions {
  /** Closed sessions vanish from the list (a server that lists only open sessions). */
  hideClosed?: boolean;
  /** Called before each list call is answered (0-based call number). */
  beforeList?: (call: number, site: FakeSite) => void;
  /** Close errors by session id. */
  failClose?: (id: string) => string | undefined;
}

/** An in-memory site: newest first, offset paging, email filter, close. */
export class FakeSite {
  listCalls = 0;
  closeCalls: string[][] = [];
  constructor(public sessions: FakeSession[], private readonly options: FakeSiteOptions = {}) {}

  add(s: FakeSession): void {
    this.sessions.unshift(s);
  }

  closedIds(): string[] {
    return this.sessions.filter((s) => s.closed_at !== null).map((s) => s.id);
  }

  ports(): CleanupPorts {
    return {
      list: async (input: CleanupPageInput): Promise<CleanupPage> => {
        this.options.beforeList?.(this.listCalls, this);
        this.listCalls += 1;
        let visible = this.sessions.filter((s) => input.email === undefined || s.email.toLowerCase() === input.email.toLowerCase());
        if (this.options.hideClosed) visible = visible.filter((s) => s.closed_at === null);
        const slice = visible.slice(input.offset, input.offset + input.limit).map((s) => ({ ...s }));
        return selectPage(slice, visible.length, input);
      },
      close: async (ids: string[]) => {
        this.closeCalls.push(ids);
        const failed: CloseFailure[] = [];
        let closed = 0;
        for (const id of ids) {
          const error = this.options.failClose?.(id);
          if (error !== undefined) {
            failed.push({ sessionId: id, error });
            continue;
          }
          const s = this.sessions.find((x) => x.id === id);
          if (s && s.closed_at === null) s.closed_at = new Date(NOW).toISOString();
          closed += 1;
        }
        return { closed, failed };
      },
    };
  }
}

/** `n` sessions named `${prefix}${i}`, with options per index. */
export function many(n: number, prefix: string, opts: (i: number) => Parameters<typeof session>[1]): FakeSession[] {
  return Array.from({ length: n }, (_, i) => session(`${prefix}${i}`, opts(i)));
}
