/**
 * Simulated time: wall-clock time plus an offset that `POST /__sim/time/advance` moves forward.
 * Never goes backwards, so creation order and timestamps agree.
 */
export class Clock {
  private offset = 0;
  private last = 0;

  now(): number {
    const t = Date.now() + this.offset;
    if (t > this.last) this.last = t;
    return this.last;
  }

  /** Moves simulated time forward by `ms` (>= 0). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error('time advance: `ms` must be a number >= 0');
    this.offset += ms;
  }

  /** Restores a saved offset (never moves time back). */
  restoreOffset(ms: number): void {
    if (ms > this.offset) this.offset = ms;
  }

  get offsetMs(): number {
    return this.offset;
  }

  reset(): void {
    this.offset = 0;
    this.last = 0;
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
