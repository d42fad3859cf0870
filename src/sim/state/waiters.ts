import type { Clock } from './clock';
import { RequestStatus, type ChatRequestRecord } from './requests';

interface Entry {
  record: ChatRequestRecord;
  /** Real-time deadline (epoch ms) of the sync ceiling. */
  deadline: number;
  resolve: (settled: boolean) => void;
  timer?: NodeJS.Timeout;
}

/** Sync chat calls waiting for their request to settle, each with a ceiling. */
export class SyncWaiters {
  private readonly entries = new Set<Entry>();

  /** `settle` finishes due requests (the simulator's tick). */
  constructor(private readonly clock: Clock, private readonly settle: () => void) {}

  /** Resolves true once the request has settled, false if `ceilingMs` of real time pass first. */
  wait(record: ChatRequestRecord, ceilingMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry: Entry = { record, deadline: Date.now() + ceilingMs, resolve };
      this.entries.add(entry);
      this.check(entry);
    });
  }

  private check(entry: Entry): void {
    this.settle();
    if (entry.record.status !== RequestStatus.pending) return this.finish(entry, true);
    const realNow = Date.now();
    if (realNow >= entry.deadline) return this.finish(entry, false);
    const untilReady = entry.record.readyAt - this.clock.now();
    const delay = Math.max(1, Math.min(untilReady, entry.deadline - realNow));
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.check(entry), delay);
  }

  private finish(entry: Entry, settled: boolean): void {
    clearTimeout(entry.timer);
    this.entries.delete(entry);
    entry.resolve(settled);
  }

  /** Re-checks every waiter (after simulated time moved). */
  poke(): void {
    for (const e of [...this.entries]) this.check(e);
  }

  /** Ends every wait as timed out (server shutdown or reset). */
  cancelAll(): void {
    for (const e of [...this.entries]) this.finish(e, false);
  }

  get size(): number {
    return this.entries.size;
  }
}
