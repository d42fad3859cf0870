import { RateLimitScope, RateLimitWindow } from './options';

interface FixedWindow {
  start: number;
  count: number;
}

/**
 * Requests per second per key (client IP + request path, spec §8). Only accepted requests count,
 * so a client that keeps hammering during a window is served again once the window resets.
 */
export class RateLimiter {
  private readonly fixed = new Map<string, FixedWindow>();
  private readonly sliding = new Map<string, number[]>();
  private lastSweep = 0;

  /** `limit` 0 disables limiting. */
  constructor(private readonly limit: number, private readonly window: RateLimitWindow) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** True when the request may proceed; `now` is real time in ms. */
  allow(key: string, now: number): boolean {
    if (this.limit <= 0) return true;
    if (now - this.lastSweep > 5000) this.sweep(now);
    return this.window === RateLimitWindow.sliding ? this.allowSliding(key, now) : this.allowFixed(key, now);
  }

  private allowFixed(key: string, now: number): boolean {
    const w = this.fixed.get(key);
    if (!w || now - w.start >= 1000) {
      this.fixed.set(key, { start: now, count: 1 });
      return true;
    }
    if (w.count >= this.limit) return false;
    w.count++;
    return true;
  }

  private allowSliding(key: string, now: number): boolean {
    let times = this.sliding.get(key);
    if (!times) this.sliding.set(key, (times = []));
    while (times.length > 0 && (times[0] as number) <= now - 1000) times.shift();
    if (times.length >= this.limit) return false;
    times.push(now);
    return true;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, w] of this.fixed) if (now - w.start >= 1000) this.fixed.delete(key);
    for (const [key, t] of this.sliding) if ((t[t.length - 1] ?? 0) <= now - 1000) this.sliding.delete(key);
  }

  reset(): void {
    this.fixed.clear();
    this.sliding.clear();
  }
}

/** Path parameters that stay literal in a route-scoped key: the budget is still per site (and tenant). */
const SCOPED_PARAMS = new Set(['site', 'tenant']);

/**
 * The limiter's path for a request: the path as requested, or with scope `route` the matched route
 * with every id other than the site and tenant replaced by `*`. Unknown routes count by their path.
 */
export function limitPath(scope: RateLimitScope, pathname: string, prefix: string, pattern: string | undefined, params: Readonly<Record<string, string>>): string {
  if (scope === RateLimitScope.path || pattern === undefined) return pathname;
  const route = pattern.split('/').map((seg) => {
    if (!seg.startsWith(':')) return seg;
    const name = seg.slice(1);
    return SCOPED_PARAMS.has(name) ? encodeURIComponent(params[name] ?? '') : '*';
  });
  return `${prefix}/${route.join('/')}`;
}
