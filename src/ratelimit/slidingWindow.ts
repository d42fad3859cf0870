/**
 * A strict limiter: at most `limit` requests in any window of `windowMs`, as the server sees them. Temporal's
 * task-queue limit is a token bucket with a burst, which lets short bursts above the rate through, so every API
 * call also passes one of these per API path inside its process, then the host-wide window (`HostPacer`): the API
 * counts per client IP, and one worker host is one IP.
 *
 * The server counts a request when it arrives, somewhere between our send and its response. So a request holds
 * its place in the window from the moment it is let through until its response, and the window is measured from
 * the response: event-loop delays and network jitter then cannot squeeze a sixth request into the server's second.
 */
export class SlidingWindowLimiter {
  /** End times of recent requests; in-flight requests count as ending now. */
  private readonly ends: number[] = [];
  private inFlight = 0;
  private tail: Promise<void> = Promise.resolve();
  private wake?: () => void;

  constructor(
    readonly limit: number,
    readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `fn` when the window allows; callers are served in arrival order. A limit of 0 disables it. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.limit <= 0) return fn();
    const turn = this.tail.then(() => this.waitForSlot(signal));
    // A cancelled waiter must not block the ones behind it.
    this.tail = turn.catch(() => undefined);
    await turn;
    try {
      return await fn();
    } finally {
      this.inFlight -= 1;
      this.ends.push(this.now());
      this.wake?.();
    }
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const t = this.now();
      while (this.ends.length > 0 && t - (this.ends[0] as number) >= this.windowMs) this.ends.shift();
      if (this.ends.length + this.inFlight < this.limit) {
        this.inFlight += 1;
        return;
      }
      // Wait for the oldest end to leave the window, or for an in-flight request to end (then re-check). An abort
      // ends the wait too; the loop's first line then throws its reason.
      const waitMs = this.ends.length > 0 ? (this.ends[0] as number) + this.windowMs - t + 1 : this.windowMs;
      const wait = wakeableDelay(waitMs, signal);
      this.wake = wait.wake;
      await wait.done.catch(() => undefined);
      this.wake = undefined;
    }
  }
}

/** Waits `ms`, or until aborted (rejects with the signal's reason). */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return wakeableDelay(ms, signal).done;
}

/**
 * A delay that `wake()` may end early. However it ends (timer, wake, abort), its timer and its abort listener go
 * with it. A limiter's waits for one activity share its signal (a settle batch's feedback and closes), and the
 * listener a wait woken early used to leave there until its timer ran out added up to Node's
 * MaxListenersExceededWarning (11 abort listeners on one AbortSignal) in every run.
 */
export function wakeableDelay(ms: number, signal?: AbortSignal): { done: Promise<void>; wake: () => void } {
  let wake: () => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(end, Math.max(0, ms));
    function release(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    function onAbort(): void {
      release();
      reject(signal?.reason);
    }
    function end(): void {
      release();
      resolve();
    }
    wake = end;
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return { done, wake: () => wake() };
}
