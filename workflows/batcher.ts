/**
 * Collects items and hands them to `flush` in batches of `size`, so feedback, recording and closing cost one
 * activity per batch instead of one per row (history events and billable actions per row stay low).
 * Flushes run in the background; `drain()` flushes the rest and waits for all of them.
 */
export class Batcher<T> {
  private items: T[] = [];
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  /** Under `holdShortly`: how long an item may wait, and how many make a batch worth sending while none is running. */
  private holds: { maxMs: number; idleBatch: number } | undefined;
  /** Workflow time when the oldest item still held was added. */
  private firstHeldAt = 0;
  private flushedAny = false;

  constructor(
    private size: number,
    private readonly flush: (batch: T[]) => Promise<void>,
  ) {}

  /** Smaller batches near the end, so the last rows are not held back waiting for a full batch. */
  resize(size: number): void {
    this.size = size;
    if (this.items.length >= this.size) this.startFlush();
  }

  add(item: T): void {
    if (this.items.length === 0) this.firstHeldAt = Date.now();
    this.items.push(item);
    if (this.items.length >= this.size || this.heldTooLong()) this.startFlush();
  }

  /**
   * From now on the first item goes at once; after it, what is held goes as soon as no flush is running and it makes
   * `idleBatch` items, or once its oldest item has waited `maxMs`; a full batch goes at once as ever. Looked at when an
   * item comes and when a flush ends (no timer: the workflow wakes up for those anyway).
   */
  holdShortly(maxMs: number, idleBatch: number): void {
    this.holds = { maxMs, idleBatch };
  }

  private heldTooLong(): boolean {
    if (this.holds === undefined || this.items.length === 0) return false;
    if (!this.flushedAny) return true;
    if (this.pending.size === 0 && this.items.length >= this.holds.idleBatch) return true;
    return Date.now() - this.firstHeldAt >= this.holds.maxMs;
  }

  /** Hands what is collected to `flush` now, however few. */
  flushNow(): void {
    this.startFlush();
  }

  async drain(): Promise<void> {
    this.startFlush();
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.failure !== undefined) throw this.failure;
  }

  private startFlush(): void {
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.flushedAny = true;
    const p: Promise<void> = this.flush(batch)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => {
        this.pending.delete(p);
        if (this.heldTooLong()) this.startFlush();
      });
    this.pending.add(p);
  }
}
