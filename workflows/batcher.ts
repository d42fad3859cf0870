/**
 * Collects items and hands them to `flush` in batches of `size`, so feedback, recording and closing cost one
 * activity per batch instead of one per row (history events and billable actions per row stay low).
 * Flushes run in the background; `drain()` flushes the rest and waits for all of them.
 */
export class Batcher<T> {
  private items: T[] = [];
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  /** Hand what is held to `flush` whenever no flush is running (see `flushWhenIdle`). */
  private whenIdle = false;

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
    this.items.push(item);
    if (this.items.length >= this.size || (this.whenIdle && this.pending.size === 0)) this.startFlush();
  }

  /** From now on, items go to `flush` as soon as no flush is running, however few; full batches go at once as before. */
  flushWhenIdle(): void {
    this.whenIdle = true;
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
    const p: Promise<void> = this.flush(batch)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => {
        this.pending.delete(p);
        if (this.whenIdle && this.pending.size === 0) this.startFlush();
      });
    this.pending.add(p);
  }
}
