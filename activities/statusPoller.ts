import { NotFoundError, RateLimitError, SiteChatError } from '../src/api/errors';
import type { SiteChatClient } from '../src/api';
import type { RequestStatus } from '../src/api/schemas';
import type { Pacer } from '../src/ratelimit/pacer';
import { carryContext, type InContext } from '../src/observability/tracing/carry';
import { DEFAULT_NEW_REQUEST_GRACE_MS } from '../src/temporal/workerConfig';

/** How a watched request ended. */
export type PollOutcome =
  /**
   * The API finished the request (`completed` or `failed`, spec §4.5). `atFirstPoll`: it was finished already when
   * this watch first looked, so when it finished is not known more closely than "before now".
   */
  | { kind: 'finished'; status: RequestStatus; atFirstPoll: boolean }
  /** A 404 past the new request's grace: the request expired or vanished, which no retry will change. */
  | { kind: 'gone'; error: string }
  /** The deadline passed; `lastError` is the last poll's retryable error, if the last poll failed. */
  | { kind: 'timed_out'; lastError?: string };

export interface WatchOptions {
  siteId: string;
  requestId: string;
  /** When the API returned the request id (epoch ms): a 404 within `newRequestGraceMs` of it is polled again. */
  acceptedAt: number;
  /** When to poll first (epoch ms; spec §8: 1–2 s after submitting). */
  firstPollAt: number;
  /** When to stop polling (epoch ms). */
  deadline: number;
  /** The activity's cancellation: the watch ends, and `watch` rejects with the signal's reason. */
  signal: AbortSignal;
  /** Called while the request is still open, so the activity can tell Temporal it is alive (see `beatAfterMs`). */
  heartbeat: () => void;
  /** This watch's first heartbeat after this long (its activity's own heartbeat timeout sets it); else the poller's. */
  beatAfterMs?: number;
}

export interface StatusPollerOptions {
  api: SiteChatClient;
  limiter: Pacer;
  /** The gap between the end of one poll of a request and the next; never below one path's budget (the caller's floor). */
  intervalMs: number;
  /** Whether this site's status polls are paced per route (configured, or learned from a 429). */
  pacedPerRoute: (siteId: string) => boolean;
  /** A status poll of the site got 429: the server counts the route, not each request's path. */
  onRateLimited: (siteId: string) => void;
  /** The limiter key for a site's status polls when paced per route. */
  routeKey: (siteId: string) => string;
  /** A watch heartbeats only once it is this old (an answer within it needs none: heartbeats are billed). @default 10000 */
  beatAfterMs?: number;
  /** Then at most this often (the SDK throttles further). @default 5000 */
  beatEveryMs?: number;
  /**
   * A 404 `request not found` for a request the API returned less than this long ago is polled again, not final:
   * some deployments are eventually consistent, and their status lookup does not know a new id for a moment.
   * @default 30000
   */
  newRequestGraceMs?: number;
}


interface Watch extends WatchOptions {
  /** The watching activity's trace context: its polls' spans are its children. */
  inContext: InContext;
  dueAt: number;
  beatAt: number;
  inFlight: boolean;
  polled: boolean;
  lastError?: string;
  resolve: (outcome: PollOutcome) => void;
  reject: (err: unknown) => void;
  onAbort: () => void;
}

/**
 * Polls are gathered into one timer per wake-up: due times within this of each other share it. Small against the 1 s
 * poll interval of the spec; it bounds how often the loop scans the requests in flight.
 */
const COALESCE_MS = 10;

/**
 * One status poller per worker process: a single paced loop over every request in flight, instead of a sleeping
 * loop (and its timers) per question. Each request is polled at most once per `intervalMs`, one poll at a time;
 * polls of a site paced per route go through the host's pacer; a 429's Retry-After holds back every poll of that
 * site until it has passed. The loop also heartbeats for the activities whose answer is slow to come.
 */
export class StatusPoller {
  readonly #opts: Required<StatusPollerOptions>;
  readonly #watches = new Set<Watch>();
  /** Per site: no status poll before this time (a 429's Retry-After). */
  readonly #holdUntil = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;

  constructor(options: StatusPollerOptions) {
    // An option given as undefined takes its default too: a NaN heartbeat time would leave the loop without a wake-up.
    this.#opts = {
      ...options, beatAfterMs: options.beatAfterMs ?? 10_000, beatEveryMs: options.beatEveryMs ?? 5_000, newRequestGraceMs: options.newRequestGraceMs ?? DEFAULT_NEW_REQUEST_GRACE_MS,
    };
  }

  /** Requests being watched now. */
  get size(): number {
    return this.#watches.size;
  }

  /** Whether a wake-up is set (none once nothing is watched: the poller never keeps a process alive by itself). */
  get awake(): boolean {
    return this.#timer !== undefined;
  }

  /** Watches one request until it is finished, gone, past its deadline, or the signal aborts. */
  watch(options: WatchOptions): Promise<PollOutcome> {
    if (options.signal.aborted) return Promise.reject(options.signal.reason);
    return new Promise<PollOutcome>((resolve, reject) => {
      const now = Date.now();
      const w: Watch = {
        ...options,
        dueAt: Math.min(options.firstPollAt, Math.max(now, options.deadline)),
        beatAt: now + (options.beatAfterMs ?? this.#opts.beatAfterMs),
        inFlight: false,
        polled: false,
        inContext: carryContext(),
        resolve,
        reject,
        onAbort: () => this.#end(w, () => reject(options.signal.reason)),
      };
      options.signal.addEventListener('abort', w.onAbort, { once: true });
      this.#watches.add(w);
      this.#wakeBy(w.dueAt);
    });
  }

  #end(w: Watch, settle: () => void): void {
    if (!this.#watches.delete(w)) return;
    w.signal.removeEventListener('abort', w.onAbort);
    // Nothing left to poll or heartbeat: a wake-up still set (the last watch's heartbeat time, up to 30 s away)
    // would only keep a stopping worker's process alive.
    if (this.#watches.size === 0) this.#sleep();
    settle();
  }

  #sleep(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  /** Makes sure the loop wakes by `at`. */
  #wakeBy(at: number): void {
    if (at >= this.#timerAt) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, at - Date.now() + COALESCE_MS));
  }

  #tick(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const w of this.#watches) {
      if (now >= w.beatAt) {
        w.heartbeat();
        w.beatAt = now + this.#opts.beatEveryMs;
      }
      next = Math.min(next, w.beatAt);
      if (w.inFlight) continue;
      // A request is polled at least once, even one resumed after its deadline: it may have finished meanwhile.
      if (w.polled && now >= w.deadline) {
        this.#end(w, () => w.resolve({ kind: 'timed_out', lastError: w.lastError }));
        continue;
      }
      const due = Math.max(w.dueAt, this.#holdUntil.get(w.siteId) ?? 0);
      if (now >= due) void this.#poll(w);
      else next = Math.min(next, due);
    }
    if (next < Infinity) this.#wakeBy(next);
  }

  async #poll(w: Watch): Promise<void> {
    const { api, limiter, intervalMs } = this.#opts;
    w.inFlight = true;
    const first = !w.polled;
    let waitMs = intervalMs;
    try {
      const get = (): Promise<RequestStatus> => w.inContext(() => api.requests.get(w.siteId, w.requestId, { signal: w.signal }));
      const status = this.#opts.pacedPerRoute(w.siteId) ? await limiter.run(this.#opts.routeKey(w.siteId), get, w.signal) : await get();
      w.lastError = undefined;
      if (status.status === 'completed' || status.status === 'failed') return this.#end(w, () => w.resolve({ kind: 'finished', status, atFirstPoll: first }));
    } catch (err) {
      if (w.signal.aborted) return;
      const isNew = err instanceof NotFoundError && Date.now() - w.acceptedAt < this.#opts.newRequestGraceMs;
      if (err instanceof NotFoundError && !isNew) return this.#end(w, () => w.resolve({ kind: 'gone', error: `status lookup: ${err.status} ${err.error}` }));
      if (!(err instanceof SiteChatError) || !(err.retryable || isNew)) return this.#end(w, () => w.reject(err));
      // 429/5xx/network, or a new id not known yet: keep polling until the deadline rather than failing the ask.
      w.lastError = `${err.status ?? 'network'} ${err.error ?? err.message}`;
      if (err instanceof RateLimitError) {
        this.#opts.onRateLimited(w.siteId);
        if (err.retryAfterMs !== undefined) {
          waitMs = Math.max(waitMs, err.retryAfterMs);
          this.#holdUntil.set(w.siteId, Math.max(this.#holdUntil.get(w.siteId) ?? 0, Date.now() + err.retryAfterMs));
        }
      }
    } finally {
      w.inFlight = false;
      w.polled = true;
    }
    if (!this.#watches.has(w)) return;
    w.dueAt = Math.min(Date.now() + waitMs, w.deadline);
    this.#wakeBy(Math.max(w.dueAt, this.#holdUntil.get(w.siteId) ?? 0));
  }
}
