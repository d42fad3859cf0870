import type { EndpointName } from './constants';

/** What `GET /__sim/stats` returns. */
export interface SimStats {
  startedAt: string;
  /** Responses per endpoint name and HTTP status, e.g. `{ "chat.async": { "200": 10, "429": 1 } }`. */
  requests: Record<string, Record<string, number>>;
  /** 429 responses sent (rate limiter and injected bursts). */
  rateLimited: number;
  /** Chat requests accepted (sync + async). */
  submitted: number;
  submittedByMode: { sync: number; async: number };
  /** Chat requests by current status (those still within retention and not yet expired count too). */
  chatRequests: { pending: number; completed: number; failed: number };
  /** Feedback calls recorded (200 responses). */
  feedback: number;
  feedbackByValue: { good: number; bad: number };
  sessions: { total: number; closed: number };
  /**
   * Second submissions: a message identical to an earlier user message of the same session that the service did not
   * fail (a re-ask of a failed request is on purpose), or to a recent ask of the same site and asker (email, else
   * session) in any session whose response never reached the client.
   */
  duplicateSubmissions: number;
  /** Judge completions served by `POST /v1/chat/completions` (200s), by verdict. Errors are in `requests['judge.chat']`. */
  judge: { calls: number; verdicts: { pass: number; fail: number } };
  /**
   * Injected faults. `dropped` responses are not counted in `requests`; `badGateway` (HTML 502 pages after the request
   * was processed) are, as 502. `transientFailures`: requests failed by `transientFailRate`.
   */
  faults: { errors: number; asyncFailures: number; transientFailures: number; dropped: number; badGateway: number; bursts: number; delayed: number };
  /** Most requests in flight at once, overall and on one (client IP, path). */
  maxConcurrent: number;
  maxConcurrentPerPath: number;
  /** Per endpoint: the most requests seen on one (client IP, path) within any 1 s (429s included). */
  peakRatePerPath: Record<string, number>;
}

type Counters = Omit<SimStats, 'startedAt' | 'chatRequests' | 'sessions' | 'maxConcurrent' | 'maxConcurrentPerPath' | 'peakRatePerPath' | 'requests'>;

function zero(): Counters {
  return {
    rateLimited: 0,
    submitted: 0,
    submittedByMode: { sync: 0, async: 0 },
    feedback: 0,
    feedbackByValue: { good: 0, bad: 0 },
    duplicateSubmissions: 0,
    judge: { calls: 0, verdicts: { pass: 0, fail: 0 } },
    faults: { errors: 0, asyncFailures: 0, transientFailures: 0, dropped: 0, badGateway: 0, bursts: 0, delayed: 0 },
  };
}

/** Counters and traffic shape. Rates and concurrency use real time, keyed by (client IP, path). */
export class StatsCollector {
  counters: Counters = zero();
  private startedAt = Date.now();
  private requests = new Map<string, Map<number, number>>();
  private readonly inFlight = new Map<string, number>();
  private inFlightTotal = 0;
  private maxConcurrent = 0;
  private maxConcurrentPerPath = 0;
  /** Recent arrival times per (client IP, path), for the sliding 1 s peak. */
  private readonly arrivals = new Map<string, number[]>();
  private peak = new Map<string, number>();
  private lastSweep = 0;

  /** A request arrived on `key`; returns the function to call when it is over. */
  begin(key: string, endpoint: string, now: number): () => void {
    const n = (this.inFlight.get(key) ?? 0) + 1;
    this.inFlight.set(key, n);
    this.inFlightTotal++;
    if (n > this.maxConcurrentPerPath) this.maxConcurrentPerPath = n;
    if (this.inFlightTotal > this.maxConcurrent) this.maxConcurrent = this.inFlightTotal;
    let times = this.arrivals.get(key);
    if (!times) this.arrivals.set(key, (times = []));
    while (times.length > 0 && (times[0] as number) <= now - 1000) times.shift();
    times.push(now);
    if (times.length > (this.peak.get(endpoint) ?? 0)) this.peak.set(endpoint, times.length);
    if (now - this.lastSweep > 2000) this.sweep(now);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlightTotal--;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    };
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, times] of this.arrivals) if ((times[times.length - 1] ?? 0) <= now - 1000) this.arrivals.delete(key);
  }

  response(endpoint: EndpointName | 'unknown', status: number): void {
    let byStatus = this.requests.get(endpoint);
    if (!byStatus) this.requests.set(endpoint, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (status === 429) this.counters.rateLimited++;
  }

  snapshot(live: Pick<SimStats, 'chatRequests' | 'sessions'>): SimStats {
    const requests: SimStats['requests'] = {};
    for (const [endpoint, byStatus] of this.requests) requests[endpoint] = Object.fromEntries([...byStatus].map(([s, n]) => [String(s), n]));
    return {
      startedAt: new Date(this.startedAt).toISOString(),
      requests,
      ...structuredClone(this.counters),
      ...live,
      maxConcurrent: this.maxConcurrent,
      maxConcurrentPerPath: this.maxConcurrentPerPath,
      peakRatePerPath: Object.fromEntries(this.peak),
    };
  }

  /** Zeroes everything except requests still in flight. */
  reset(): void {
    this.counters = zero();
    this.startedAt = Date.now();
    this.requests = new Map();
    this.arrivals.clear();
    this.peak = new Map();
    this.maxConcurrent = this.inFlightTotal;
    this.maxConcurrentPerPath = Math.max(0, ...this.inFlight.values());
  }
}
