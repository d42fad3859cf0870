import { createHash, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { delay } from './slidingWindow';

/** A send that holds a place in the window until its response; dropped when its process is gone or it expires. */
interface Hold {
  id: string;
  pid: number;
  host: string;
  expiresAt: number;
}

interface WindowState {
  /** When recent requests ended (ms since the epoch: every process of the host reads one clock). */
  ends: number[];
  holds: Hold[];
}

/** A lock older than this belongs to a process that died holding it (it is held for a file read and a write). */
const STALE_LOCK_MS = 2_000;
/** How long to wait before looking again when the window is full of requests still in flight. */
const IN_FLIGHT_RECHECK_MS = 20;
/** Retry delay when another process holds the lock. */
const LOCK_RETRY_MS = 1;

/**
 * The strict sliding window of `SlidingWindowLimiter` (at most `limit` requests in any `windowMs`, a request holding
 * its place from send to response), shared by every process of one host through a small state file per key. The API
 * counts per client IP, and the worker processes of a host share its IP: a limiter per process would let two workers
 * send twice the budget. The file is changed under an exclusive lock file (`O_EXCL` create), held for one read and
 * one write; a process killed while holding it leaves a lock that the others break after two seconds.
 */
export class HostWindow {
  private readonly statePath: string;
  private readonly lockPath: string;

  /**
   * @param dir the host's pacing directory (every worker of the host must use the same one)
   * @param key what the API counts separately, e.g. `https://api.example.com POST /m2m/sites/s1/chat/async`
   * @param holdMs how long a send may hold its place at most (longer than the HTTP timeout); a crashed worker's
   *   holds are also dropped as soon as its pid is gone
   */
  constructor(
    dir: string,
    key: string,
    readonly limit: number,
    readonly windowMs = 1000,
    private readonly holdMs = 120_000,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const name = createHash('sha256').update(key).digest('hex').slice(0, 32);
    this.statePath = join(dir, `${name}.json`);
    this.lockPath = join(dir, `${name}.lock`);
  }

  /** Runs `fn` once the host-wide window has room; its place is held until `fn` settles. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const id = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      await this.release(id);
    }
  }

  private async acquire(signal?: AbortSignal): Promise<string> {
    const id = randomUUID();
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await this.locked((state, now) => {
        if (state.ends.length + state.holds.length < this.limit) {
          state.holds.push({ id, pid: process.pid, host: hostname(), expiresAt: now + this.holdMs });
          return 0;
        }
        const oldest = state.ends[0];
        return oldest !== undefined ? Math.max(1, oldest + this.windowMs - now + 1) : IN_FLIGHT_RECHECK_MS;
      });
      if (waitMs === 0) return id;
      await delay(Math.min(waitMs, this.windowMs), signal);
    }
  }

  private async release(id: string): Promise<void> {
    await this.locked((state, now) => {
      state.holds = state.holds.filter((h) => h.id !== id);
      // Counted from its response even when its hold expired meanwhile: the request happened.
      state.ends.push(now);
      return 0;
    });
  }

  /** Runs `change` on the current state under the lock and writes the state back. */
  private async locked(change: (state: WindowState, now: number) => number): Promise<number> {
    await this.lock();
    try {
      const now = Date.now();
      const state = this.prune(this.load(), now);
      const result = change(state, now);
      const tmp = `${this.statePath}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(state));
      renameSync(tmp, this.statePath);
      return result;
    } finally {
      unlinkSync(this.lockPath);
    }
  }

  private async lock(): Promise<void> {
    for (;;) {
      try {
        closeSync(openSync(this.lockPath, 'wx', 0o600));
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const age = Date.now() - (statSync(this.lockPath, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) {
        try {
          unlinkSync(this.lockPath);
        } catch {
          // Another process broke it first.
        }
        continue;
      }
      await delay(LOCK_RETRY_MS);
    }
  }

  private load(): WindowState {
    try {
      const parsed = JSON.parse(readFileSync(this.statePath, 'utf8')) as Partial<WindowState>;
      return { ends: Array.isArray(parsed.ends) ? parsed.ends : [], holds: Array.isArray(parsed.holds) ? parsed.holds : [] };
    } catch {
      // No file yet. A file that does not parse cannot happen (written by rename) unless edited by hand: start afresh.
      return { ends: [], holds: [] };
    }
  }

  private prune(state: WindowState, now: number): WindowState {
    const host = hostname();
    return {
      ends: state.ends.filter((t) => now - t < this.windowMs).sort((a, b) => a - b),
      holds: state.holds.filter((h) => h.expiresAt > now && !(h.host === host && !isAlive(h.pid))),
    };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
