import type { ComposedAnswer } from '../kb/answer';
import { MinHeap } from './heap';

export const RequestStatus = { pending: 'pending', completed: 'completed', failed: 'failed' } as const;
export type RequestStatus = (typeof RequestStatus)[keyof typeof RequestStatus];

export type FeedbackValue = 'good' | 'bad';

/** One chat request (sync or async). Its answer is computed at submit and revealed at `readyAt`. */
export interface ChatRequestRecord {
  id: string;
  siteId: string;
  sessionId: string;
  mode: 'sync' | 'async';
  message: string;
  model: string;
  email?: string;
  responseLanguage?: string;
  uiLocale?: string;
  createdAt: number;
  /** Simulated time at which processing finishes. */
  readyAt: number;
  status: RequestStatus;
  /** What the request becomes at `readyAt`. */
  outcome: 'completed' | 'failed';
  result: ComposedAnswer;
  error?: string;
  feedback?: { value: FeedbackValue; submittedAt: number };
}

/**
 * Chat requests by id. Completion is lazy: every API call first settles the requests whose
 * `readyAt` has passed (a heap keeps that cheap), so simulated time can also jump forward.
 */
export class RequestStore {
  private readonly byId = new Map<string, ChatRequestRecord>();
  private readonly due = new MinHeap<ChatRequestRecord>((r) => r.readyAt);
  pending = 0;
  completed = 0;
  failed = 0;

  /** `onSettle` runs once per request when it leaves `pending`. */
  constructor(private readonly onSettle: (r: ChatRequestRecord) => void) {}

  add(record: ChatRequestRecord): void {
    this.byId.set(record.id, record);
    this.due.push(record);
    this.pending++;
  }

  /** Finishes every request due at `now`. */
  settle(now: number): void {
    for (let top = this.due.peek(); top && top.readyAt <= now; top = this.due.peek()) {
      this.due.pop();
      top.status = top.outcome;
      this.pending--;
      if (top.outcome === RequestStatus.completed) this.completed++;
      else this.failed++;
      this.onSettle(top);
    }
  }

  /** Forgets requests created more than `retentionMs` ago (insertion order is creation order). */
  expire(now: number, retentionMs: number): void {
    for (const [id, r] of this.byId) {
      if (r.createdAt + retentionMs > now) break;
      this.byId.delete(id);
    }
  }

  /** The request, unless unknown or past retention. */
  get(id: string, now: number, retentionMs: number): ChatRequestRecord | undefined {
    const r = this.byId.get(id);
    return r && r.createdAt + retentionMs > now ? r : undefined;
  }

  /** Every retained request in creation order (for the state file). */
  all(): ChatRequestRecord[] {
    return [...this.byId.values()];
  }

  /**
   * Puts back a saved request (call in creation order). A pending one is scheduled again for its
   * `readyAt`, so it settles with the outcome decided when it was submitted.
   */
  restore(record: ChatRequestRecord): void {
    this.byId.set(record.id, record);
    if (record.status === RequestStatus.pending) {
      this.due.push(record);
      this.pending++;
    } else if (record.status === RequestStatus.completed) this.completed++;
    else this.failed++;
  }

  clear(): void {
    this.byId.clear();
    this.due.clear();
    this.pending = this.completed = this.failed = 0;
  }
}
