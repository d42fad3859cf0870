/**
 * A strict limiter: at most `limit` starts in any window of `windowMs`. Temporal's task-queue limit is a token
 * bucket with a burst, which lets short bursts above the rate through (and a batch activity makes several
 * calls per task), so each worker process also holds one of these per API path. The API counts per client IP,
 * and one worker host is one IP.
 */
export class SlidingWindowLimiter {
  private readonly starts: number[] = [];
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly limit: number,
    readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves when a start is allowed; callers are served in arrival order. A limit of 0 disables it. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (this.limit <= 0) return Promise.resolve();
    const turn = this.tail.then(() => this.waitForSlot(signal));
    // A cancelled waiter must not block the ones behind it.
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const t = this.now();
      while (this.starts.length > 0 && t - (this.starts[0] as number) >= this.windowMs) this.starts.shift();
      if (this.starts.length < this.limit) {
        this.starts.push(t);
        return;
      }
      // Small margin: the server's window and ours are measured on different clocks.
      await delay((this.starts[0] as number) + this.windowMs - t + 5, signal);
    }
  }
}

/** One limiter per key (an API path such as `POST /m2m/sites/demo/chat/async`), created on first use. */
export class LimiterPool {
  private readonly limiters = new Map<string, SlidingWindowLimiter>();
  constructor(private readonly limit: number, private readonly windowMs = 1000) {}

  acquire(key: string, signal?: AbortSignal): Promise<void> {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new SlidingWindowLimiter(this.limit, this.windowMs);
      this.limiters.set(key, limiter);
    }
    return limiter.acquire(signal);
  }
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, Math.max(0, ms));
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    function done(): void {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
