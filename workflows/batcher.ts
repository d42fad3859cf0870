/** When a batch goes before it is full. */
export interface BatchHolds {
  /** The longest the oldest item held may wait. */
  maxMs: number;
  /** Items that make a batch worth sending while no flush is running. */
  idleBatch: number;
}

/**
 * Collects items and hands them to `flush` in batches, so feedback, closes and records cost one activity per batch
 * instead of one per row (history events and billable actions per row stay low). The first item goes at once; after
 * it, what is held goes when the batch is full, or as soon as no flush is running and it makes `holds.idleBatch`
 * items, or once its oldest item has waited `holds.maxMs`. That is looked at when an item comes and when a flush ends:
 * no timer, since the workflow wakes up for those anyway. Flushes run in the background; `drain()` flushes the rest
 * and waits for all of them.
 */
export class Batcher<T> {
  private items: T[] = [];
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  /** Workflow time when the oldest item still held was added. */
  private firstHeldAt = 0;
  private flushedAny = false;

  constructor(
    private size: number,
    private readonly holds: BatchHolds,
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

  private heldTooLong(): boolean {
    if (this.items.length === 0) return false;
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
