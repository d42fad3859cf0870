import { TimestampFormat } from '../options';

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

/**
 * Offsets (minutes east of UTC) of `timestamps: 'offset'`, picked by the instant's second: the timestamps of one list
 * carry several, so only a client that parses them (not one that compares the strings) orders them right.
 */
const OFFSETS_MIN = [330, -480, 0, 585, -210, 840, -660];

/** An instant as the `timestamps` option writes it in responses. */
export function stamp(ms: number, format: TimestampFormat): string {
  if (format === TimestampFormat.utc) return iso(ms);
  // Microseconds the simulated clock does not have: any three digits after the milliseconds keep the instant.
  const micro = String((ms * 7) % 1000).padStart(3, '0');
  if (format === TimestampFormat.naive) return `${iso(ms).slice(0, -1)}${micro}`;
  const offset = OFFSETS_MIN[Math.floor(ms / 1000) % OFFSETS_MIN.length] as number;
  const two = (n: number): string => String(n).padStart(2, '0');
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${iso(ms + offset * 60_000).slice(0, -1)}${micro}${zone}`;
}
