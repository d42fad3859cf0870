import type { FaultConfig } from './faults/config';
import { FaultInjector } from './faults/injector';
import { loadFixtures, type Fixtures } from './fixtures';
import { resolveOptions, type ResolvedOptions, type SimulatorOptions } from './options';
import { Prng } from './prng';
import { RateLimiter } from './ratelimit';
import { Clock } from './state/clock';
import { Registry } from './state/registry';
import { RequestStatus, RequestStore, type ChatRequestRecord } from './state/requests';
import { SessionStore } from './state/sessions';
import { SyncWaiters } from './state/waiters';
import { StatsCollector, type SimStats } from './stats';

/**
 * All state of one simulator instance: fixtures, sessions, requests, feedback, faults, rate
 * limiter, stats and the simulated clock. The HTTP layer and handlers operate on it.
 */
export class Simulator {
  readonly options: ResolvedOptions;
  readonly clock = new Clock();
  readonly sessions = new SessionStore();
  readonly requests: RequestStore;
  readonly waiters: SyncWaiters;
  readonly stats = new StatsCollector();
  readonly faults: FaultInjector;
  readonly limiter: RateLimiter;
  registry: Registry;
  /** Request and generated session ids. */
  ids: Prng;
  /** Completion times. */
  latency: Prng;
  private readonly fixtures: Fixtures;

  constructor(input: SimulatorOptions = {}) {
    this.options = resolveOptions(input);
    this.fixtures = loadFixtures(input.fixtures);
    this.registry = new Registry(this.fixtures);
    this.requests = new RequestStore((r) => this.onSettle(r));
    this.waiters = new SyncWaiters(this.clock, () => this.tick());
    this.limiter = new RateLimiter(this.options.rateLimit, this.options.rateLimitWindow);
    this.ids = new Prng(this.options.seed, 'ids');
    this.latency = new Prng(this.options.seed, 'latency');
    this.faults = new FaultInjector(new Prng(this.options.seed, 'faults'));
    this.faults.set(input.faults ?? {});
  }

  /** Settles due requests and forgets expired ones; every API call starts with it. */
  tick(): number {
    const now = this.clock.now();
    this.requests.settle(now);
    this.requests.expire(now, this.options.retentionMs);
    return now;
  }

  private onSettle(r: ChatRequestRecord): void {
    if (r.status !== RequestStatus.completed) return;
    const session = this.sessions.get(r.siteId, r.sessionId);
    if (!session) return;
    session.messageCount++;
    if (r.readyAt > session.updatedAt) session.updatedAt = r.readyAt;
  }

  snapshot(): SimStats {
    this.tick();
    const { pending, completed, failed } = this.requests;
    return this.stats.snapshot({
      chatRequests: { pending, completed, failed },
      sessions: { total: this.sessions.total, closed: this.sessions.closed },
    });
  }

  setFaults(faults: FaultConfig): FaultConfig {
    return this.faults.set(faults);
  }

  advanceTime(ms: number): void {
    this.clock.advance(ms);
    this.tick();
    this.waiters.poke();
  }

  /**
   * Back to the state after start: sessions, requests, feedback, stats, rate-limit windows,
   * simulated time, random streams and documents added at runtime. The fault configuration stays
   * (with what is left of its 429 bursts).
   */
  reset(): void {
    this.waiters.cancelAll();
    this.sessions.clear();
    this.requests.clear();
    this.stats.reset();
    this.limiter.reset();
    this.clock.reset();
    this.registry = new Registry(this.fixtures);
    this.ids = new Prng(this.options.seed, 'ids');
    this.latency = new Prng(this.options.seed, 'latency');
    this.faults.reseed(new Prng(this.options.seed, 'faults'));
  }

  close(): void {
    this.waiters.cancelAll();
  }
}
