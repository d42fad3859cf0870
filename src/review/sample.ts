/** A seeded reservoir sample: the same seed and rows always draw the same rows (a reload shows the same queue). */
import { createHash } from 'node:crypto';

/** mulberry32 over a 32-bit seed taken from sha256 of the seed text. */
export function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Keeps `size` items drawn uniformly from everything offered (algorithm R); memory bounded by `size`. */
export class Reservoir<T> {
  private readonly kept: T[] = [];
  private seen = 0;
  private readonly random: () => number;

  constructor(private readonly size: number, seed: string) {
    this.random = seededRandom(seed);
  }

  offer(item: T): void {
    this.seen++;
    if (this.kept.length < this.size) {
      this.kept.push(item);
      return;
    }
    const j = Math.floor(this.random() * this.seen);
    if (j < this.size) this.kept[j] = item;
  }

  items(): T[] {
    return [...this.kept];
  }
}
