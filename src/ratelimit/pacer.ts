import { pacerKeyLabels } from '../observability/metrics/pacerLabels';
import { metrics } from '../observability/metrics/registry';
import { HostWindow } from './hostWindow';
import { SlidingWindowLimiter } from './slidingWindow';

/** Paces calls per budget key (what the API counts separately: its origin, the method and the path). */
export interface Pacer {
  run<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** `POST /m2m/sites/site-a/chat/async` → `site-a`; undefined for a path outside a site. */
export function siteOfKey(key: string): string | undefined {
  const match = /\/m2m\/sites\/([^/]+)\//.exec(key);
  return match ? decodeURIComponent(match[1] as string) : undefined;
}

/** Each site's budget: its own from `siteRates`, else `rate`. */
export function siteBudget(rate: number, siteRates: Record<string, number>): (key: string) => number {
  return (key) => {
    const site = siteOfKey(key);
    return (site !== undefined ? siteRates[site] : undefined) ?? rate;
  };
}

/**
 * The API's budget for one worker host: each key gets `limit` requests per window across every worker process of the
 * host (a `HostWindow` file in `dir`). A limiter per key inside the process goes first, so the process queues its own
 * callers in order and at most `limit` of them contend for the host's file at a time.
 */
export class HostPacer implements Pacer {
  private readonly keys = new Map<string, { local: SlidingWindowLimiter; host: HostWindow }>();

  /**
   * @param limitFor the budget of a key (a site may have its own); 0 turns pacing off for it
   */
  /**
   * @param origin the API's base URL: two servers have two budgets, so it is part of every host-wide key
   */
  constructor(
    private readonly dir: string,
    private readonly origin: string,
    private readonly limitFor: (key: string) => number,
    private readonly windowMs = 1000,
  ) {}

  run<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let entry = this.keys.get(key);
    if (!entry) {
      const limit = this.limitFor(key);
      entry = { local: new SlidingWindowLimiter(limit, this.windowMs), host: new HostWindow(this.dir, `${this.origin} ${key}`, limit, this.windowMs) };
      this.keys.set(key, entry);
    }
    const { local, host } = entry;
    if (local.limit <= 0) return fn();
    const queued = performance.now();
    return local.run(() => host.run(() => {
      metrics().pacerWait.observe(pacerKeyLabels(key), (performance.now() - queued) / 1000);
      return fn();
    }, signal), signal);
  }
}
