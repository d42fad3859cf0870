import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseSnapshot, type StateSnapshot } from './snapshot';

/** How long after a change the state file is written (changes within it share one write). */
export const STATE_DEBOUNCE_MS = 200;

/**
 * The `--state` file: read once at start, written after changes (debounced) and on close. Writes go to
 * a temporary file that is then renamed over the old one, so a crash mid-write never leaves a torn file.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private writes = 0;

  constructor(readonly path: string, private readonly build: () => StateSnapshot, private readonly debounceMs = STATE_DEBOUNCE_MS) {}

  /** The saved state, or undefined when the file does not exist yet. Throws (naming the file) when it is unreadable. */
  load(): StateSnapshot | undefined {
    if (!existsSync(this.path)) return undefined;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      throw new Error(`state file ${this.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return parseSnapshot(this.path, text);
  }

  /** Something changed: write within `debounceMs`. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
    // A pending write must not keep a process alive; close() flushes it.
    this.timer.unref();
  }

  /** Writes now (if a write is pending, or always with `force`). */
  flush(force = false): void {
    if (!this.timer && !force) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const tmp = `${this.path}.${process.pid}.${++this.writes}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.build()));
    renameSync(tmp, this.path);
  }
}
