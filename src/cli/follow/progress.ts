import type { RunProgress } from '../../domain/run';

const BAR_WIDTH = 24;

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** "57/120 (48%) passed 40 failed 9 uncertain 3 error 2 timed_out 1 | in flight 12 | 4.8 rows/s | ETA 13s" */
export function progressLine(p: RunProgress): string {
  const done = Object.values(p.counts).reduce((a, b) => a + b, 0);
  const pct = p.total > 0 ? Math.floor((done / p.total) * 100) : 0;
  const counts = (Object.entries(p.counts) as [string, number][])
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(' ');
  const parts = [`${done}/${p.total} (${pct}%)`];
  if (counts) parts.push(counts);
  if (p.phase === 'preparing') parts.push('preparing the dataset');
  if (p.phase === 'finishing') parts.push('writing reports');
  if (p.inFlight > 0) parts.push(`in flight ${p.inFlight}`);
  if (p.throughput > 0) parts.push(`${p.throughput.toFixed(1)} rows/s`);
  if (p.etaMs !== undefined) parts.push(`ETA ${duration(p.etaMs)}`);
  if (p.cancelling) parts.push('cancelling');
  if (p.storeUnreachableSince !== undefined) parts.push(`results store unreachable since ${new Date(p.storeUnreachableSince).toISOString().slice(11, 19)} UTC (waiting)`);
  return parts.join(' | ');
}

/**
 * A progress bar redrawn in place on a terminal; on anything else (CI logs, pipes) a plain line at most every
 * `intervalMs`, so logs stay readable.
 */
export class ProgressView {
  private lastLineAt = 0;
  private drawn = false;
  private closed = false;
  /** Set while a prompt owns the terminal line. */
  paused = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly intervalMs = 10_000,
  ) {}

  get tty(): boolean {
    return Boolean(this.stream.isTTY);
  }

  update(p: RunProgress): void {
    if (this.paused || this.closed) return;
    const line = progressLine(p);
    if (this.tty) {
      const done = Object.values(p.counts).reduce((a, b) => a + b, 0);
      const filled = p.total > 0 ? Math.round((done / p.total) * BAR_WIDTH) : 0;
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
      const width = this.stream.columns ?? 120;
      this.stream.write(`\r\x1b[K${`${bar} ${line}`.slice(0, width - 1)}`);
      this.drawn = true;
      return;
    }
    const now = Date.now();
    if (now - this.lastLineAt >= this.intervalMs) {
      this.lastLineAt = now;
      this.stream.write(`progress: ${line}\n`);
    }
  }

  /** Ends the bar's line so later output starts on a fresh one. */
  end(): void {
    if (this.tty && this.drawn) this.stream.write('\n');
    this.drawn = false;
  }

  /** Ends the bar for good: a progress answer arriving after the run ended must not draw under its summary. */
  close(): void {
    this.end();
    this.closed = true;
  }
}
