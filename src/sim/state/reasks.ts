/**
 * Re-asks across sessions. A client whose submit response never arrived (a dropped connection) asks
 * again, and unless it chose the session id itself the re-ask lands in a new session, where the
 * per-session check cannot see it. This index remembers recent submissions per (site, asker, message)
 * so such a re-ask still counts as a duplicate submission.
 *
 * "Asker" is the email (case-insensitive) of the message or of its session; a message without one is
 * known only by its session. An earlier ask counts against a new one when its submit response never
 * reached the client (a drop fault) and it is younger than the window. An ask whose response was sent
 * does not: the client knows its request id, and asking the same question again in another session is
 * then on purpose (a dataset may ask one question in several conversations at once).
 */

/** How long (simulated ms) an unanswered ask makes the same question from the same asker a re-ask. @default 10 minutes */
export const REASK_WINDOW_MS = 10 * 60_000;
/** Pruning runs after this many records, so memory follows the window rather than the run. */
const SWEEP_EVERY = 1_000;

interface Ask {
  requestId: string;
  at: number;
  lost: boolean;
}

export interface AskInput {
  siteId: string;
  /** Email of the message or of its session ('' when neither has one). */
  email: string;
  sessionId: string;
  message: string;
  requestId: string;
}

export class RecentAsks {
  private readonly byKey = new Map<string, Ask[]>();
  private readonly byRequest = new Map<string, Ask>();
  private sinceSweep = 0;

  constructor(private readonly windowMs = REASK_WINDOW_MS) {}

  private static key(a: Omit<AskInput, 'requestId'>): string {
    const asker = a.email ? `email:${a.email.toLowerCase()}` : `session:${a.sessionId}`;
    return `${a.siteId}\n${asker}\n${a.message}`;
  }

  /** Records a submission; true when an earlier ask of the same question by the same asker lost its response, within the window. */
  record(input: AskInput, now: number): boolean {
    if (++this.sinceSweep >= SWEEP_EVERY) this.sweep(now);
    const key = RecentAsks.key(input);
    const list = (this.byKey.get(key) ?? []).filter((a) => now - a.at <= this.windowMs);
    const reask = list.some((a) => a.lost);
    const ask: Ask = { requestId: input.requestId, at: now, lost: false };
    list.push(ask);
    this.byKey.set(key, list);
    this.byRequest.set(input.requestId, ask);
    return reask;
  }

  /** The submit response never reached the client (a drop fault destroyed the connection). */
  lost(requestId: string): void {
    const ask = this.byRequest.get(requestId);
    if (ask) ask.lost = true;
  }

  private sweep(now: number): void {
    this.sinceSweep = 0;
    for (const [key, list] of this.byKey) {
      const kept = list.filter((a) => now - a.at <= this.windowMs);
      for (const a of list) if (now - a.at > this.windowMs) this.byRequest.delete(a.requestId);
      if (kept.length > 0) this.byKey.set(key, kept);
      else this.byKey.delete(key);
    }
  }

  clear(): void {
    this.byKey.clear();
    this.byRequest.clear();
    this.sinceSweep = 0;
  }
}
