/**
 * The one retry loop for work that Temporal's retry policies do not cover: single calls inside a batch activity,
 * waiting out a results store inside an activity, judge calls outside a run. Each caller brings its own rules (what
 * may be tried again, how long to wait) and its own sleep: an activity's cancellable `Context.sleep`, or an abortable
 * timer. Nothing here knows Node or Temporal, so every rule is testable with a fake sleep.
 */
export interface RetryRules {
  /** Whether the failure of attempt `attempt` (1-based) may be tried again; false throws it. */
  retryable(err: unknown, attempt: number): boolean;
  /** How long to wait after the failed attempt `attempt`, before the next. */
  delayMs(err: unknown, attempt: number): number;
  /** Waits `ms`; it may throw (a cancelled activity, an aborted call), which ends the loop with that error. */
  sleep(ms: number): Promise<void>;
  /** Called before each wait, e.g. to heartbeat what is waited for. */
  beforeWait?(err: unknown, attempt: number, ms: number): void;
}

/** Runs `attempt` until it succeeds or `rules` say its failure is final. */
export async function retry<T>(attempt: (n: number) => Promise<T>, rules: RetryRules): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!rules.retryable(err, n)) throw err;
      const ms = rules.delayMs(err, n);
      rules.beforeWait?.(err, n, ms);
      await rules.sleep(ms);
    }
  }
}

/** `initialMs` doubled per failed attempt (1: `initialMs`, 2: twice that, …), at most `maxMs`. */
export function doubling(initialMs: number, attempt: number, maxMs = Number.POSITIVE_INFINITY): number {
  return Math.min(maxMs, initialMs * 2 ** (attempt - 1));
}
