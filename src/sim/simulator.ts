import type { FaultConfig } from './faults/config';
import { FaultInjector } from './faults/injector';
import { loadFixtures, type Fixtures } from './fixtures';
import { AnswerNoise } from './kb/noise';
import { noiseRateOf, resolveOptions, type ResolvedOptions, type SimulatorOptions } from './options';
import { Prng } from './prng';
import { RateLimiter } from './ratelimit';
import { Clock } from './state/clock';
import { newId } from './state/ids';
import { Registry } from './state/registry';
import { RecentAsks } from './state/reasks';
import { RequestStatus, RequestStore, type ChatRequestRecord } from './state/requests';
import { SessionStore } from './state/sessions';
import { requestFromJson, sessionFromJson, sessionToJson, STATE_VERSION, type StateSnapshot } from './state/snapshot';
import { StateFile } from './state/stateFile';
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
  /** Recent asks per (site, asker, message), to count re-asks that land in another session. */
  readonly asks = new RecentAsks();
  readonly requests: RequestStore;
  readonly waiters: SyncWaiters;
  readonly stats = new StatsCollector();
  readonly faults: FaultInjector;
  readonly limiter: RateLimiter;
  registry: Registry;
  /** Completion times. */
  latency: Prng;
  /** Per-request model noise (`modelNoise`). */
  readonly noise: AnswerNoise;
  /**
   * Sites made worse on purpose (`PUT /__sim/sites/:site/answer-model`): site id → the model that answers every
   * question there, whatever the request names. Lets a test see a regression between two runs.
   */
  readonly degraded = new Map<string, string>();
  private readonly fixtures: Fixtures;
  /** The `--state` file, when state survives restarts. */
  readonly stateFile: StateFile | undefined;

  constructor(input: SimulatorOptions = {}) {
    this.options = resolveOptions(input);
    this.fixtures = loadFixtures(input.fixtures);
    this.registry = new Registry(this.fixtures);
    this.requests = new RequestStore((r) => this.onSettle(r));
    this.waiters = new SyncWaiters(this.clock, () => this.tick());
    this.limiter = new RateLimiter(this.options.rateLimit, this.options.rateLimitWindow);
    this.latency = new Prng(this.options.seed, 'latency');
    this.noise = new AnswerNoise(this.options.seed, (model) => noiseRateOf(this.options.modelNoise, model));
    this.faults = new FaultInjector(new Prng(this.options.seed, 'faults'));
    this.faults.set(input.faults ?? {});
    this.stateFile = input.state ? new StateFile(input.state, () => this.toSnapshot()) : undefined;
    const saved = this.stateFile?.load();
    if (saved) this.restore(saved);
  }

  /** A new request or session id, in the form of `idFormat` (see {@link newId}). */
  newId(kind: 'request' | 'session'): string {
    return newId(this.options.idFormat, kind);
  }

  /** State changed (an API call that writes, a reset, a time jump): schedule a write of the state file. */
  changed(): void {
    this.stateFile?.schedule();
  }

  private toSnapshot(): StateSnapshot {
    return {
      version: STATE_VERSION,
      savedAt: new Date().toISOString(),
      clockOffsetMs: this.clock.offsetMs,
      sessions: this.sessions.all().map(sessionToJson),
      requests: this.requests.all(),
    };
  }

  /**
   * Loads a saved state. Requests that were still processing keep their `readyAt` and the outcome
   * decided at submission, so the first tick completes (or fails) those whose time has come, exactly
   * as if the simulator had kept running; the others complete later.
   */
  private restore(saved: StateSnapshot): void {
    this.clock.restoreOffset(saved.clockOffsetMs);
    for (const s of saved.sessions) this.sessions.restore(sessionFromJson(s));
    for (const r of saved.requests) this.requests.restore(requestFromJson(r));
    this.tick();
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
    this.changed();
  }

  /**
   * Back to the state after start: sessions, requests, feedback, stats, rate-limit windows,
   * simulated time, random streams and documents added at runtime. The fault configuration stays
   * (with what is left of its 429 bursts).
   */
  reset(): void {
    this.waiters.cancelAll();
    this.sessions.clear();
    this.asks.clear();
    this.requests.clear();
    this.stats.reset();
    this.limiter.reset();
    this.clock.reset();
    this.registry = new Registry(this.fixtures);
    this.latency = new Prng(this.options.seed, 'latency');
    this.noise.clear();
    this.degraded.clear();
    this.faults.reseed(new Prng(this.options.seed, 'faults'));
    this.changed();
  }

  /** Ends pending sync waits and writes the state file one last time. */
  close(): void {
    this.waiters.cancelAll();
    this.stateFile?.flush(true);
  }
}
