import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StatusPoller, type PollOutcome, type WatchOptions } from '../../../activities/statusPoller';
import { statusPollKey } from '../../../activities/ask';
import { SiteChatClient } from '../../../src/api';
import type { Pacer } from '../../../src/ratelimit/pacer';
import { DEMO, startSimulator, type SimulatorHandle } from '../../../src/sim';

/**
 * The worker's one status poller against the real simulator over HTTP: one loop for every request in flight, each
 * polled at most once per interval, a 429's Retry-After holding back the site, 404s, deadlines, cancellation and
 * heartbeats for slow answers.
 */
describe('StatusPoller', () => {
  let sim: SimulatorHandle;
  let api: SiteChatClient;
  /** Limiter keys the poller went through (route pacing), in order. */
  let paced: string[];
  let rateLimited: string[];
  const passThrough: Pacer = { run: (key, fn) => (paced.push(key), fn()) };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyScale: 0.01, rateLimit: 0, retryAfterSeconds: 1 });
    api = new SiteChatClient({ baseUrl: sim.baseUrl, apiKey: DEMO.apiKey });
  });
  afterAll(async () => {
    await api.close();
    await sim.close();
  });
  afterEach(() => {
    sim.setFaults({});
    sim.reset();
  });

  function poller(opts: { intervalMs?: number; routePaced?: Set<string>; beatAfterMs?: number; beatEveryMs?: number; newRequestGraceMs?: number } = {}): StatusPoller {
    paced = [];
    rateLimited = [];
    const routePaced = opts.routePaced ?? new Set<string>();
    return new StatusPoller({
      api, limiter: passThrough, intervalMs: opts.intervalMs ?? 50, routeKey: statusPollKey,
      pacedPerRoute: (site) => routePaced.has(site),
      onRateLimited: (site) => {
        rateLimited.push(site);
        routePaced.add(site);
      },
      beatAfterMs: opts.beatAfterMs, beatEveryMs: opts.beatEveryMs, newRequestGraceMs: opts.newRequestGraceMs,
    });
  }

  async function submit(message = 'How much does the Personal plan cost?'): Promise<string> {
    const res = await api.chat.submit(DEMO.siteId, { message, session_id: randomUUID() });
    return res.request_id;
  }

  function watch(p: StatusPoller, requestId: string, over: Partial<WatchOptions> = {}): Promise<PollOutcome> {
    return p.watch({
      siteId: DEMO.siteId, requestId, acceptedAt: Date.now(), firstPollAt: Date.now() + 20, deadline: Date.now() + 10_000,
      signal: new AbortController().signal, heartbeat: () => undefined, ...over,
    });
  }

  it('answers every request in flight from one loop, each polled at most once per interval', async () => {
    const p = poller({ intervalMs: 250 });
    const ids = await Promise.all(Array.from({ length: 30 }, () => submit()));
    const outcomes = await Promise.all(ids.map((id) => watch(p, id)));
    expect(outcomes.every((o) => o.kind === 'finished' && o.status.status === 'completed' && o.status.answer)).toBe(true);
    expect(p.size).toBe(0);
    // No wake-up is left behind (the heartbeat time of the last request was one, 10 s away by default): a stopping
    // worker's process would wait for it before it exits.
    expect(p.awake).toBe(false);
    // Per request path: at most 1000 / 250 = 4 polls in any second (the simulator's peak is per path).
    expect(sim.stats().peakRatePerPath['requests.status']).toBeLessThanOrEqual(4);
    expect(paced).toHaveLength(0);
  });

  it('wakes for a request that was not due at the last wake-up, with the heartbeat options left out', async () => {
    const p = poller();
    const early = await submit();
    // The early request is answered already: its one poll ends it and sets no further wake-up of its own.
    while ((await api.requests.get(DEMO.siteId, early)).status !== 'completed') await new Promise((r) => setTimeout(r, 20));
    const late = await submit();
    const outcomes = await Promise.all([
      watch(p, early, { firstPollAt: Date.now() }),
      watch(p, late, { firstPollAt: Date.now() + 300, deadline: Date.now() + 5_000 }),
    ]);
    // An option given as undefined must take its default: a NaN heartbeat time would leave the late request without a wake-up.
    expect(outcomes.map((o) => o.kind)).toEqual(['finished', 'finished']);
  });

  it("holds back every poll of a site for a 429's Retry-After, and paces the site per route from then on", async () => {
    const p = poller({ intervalMs: 50 });
    const ids = await Promise.all([submit(), submit()]);
    sim.setFaults({ 'requests.status': { rateLimitBurst: 1 } });
    const started = Date.now();
    const outcomes = await Promise.all(ids.map((id) => watch(p, id)));
    expect(outcomes.map((o) => o.kind)).toEqual(['finished', 'finished']);
    expect(rateLimited).toEqual([DEMO.siteId]);
    // Retry-After: 1 s for the site. Without the hold, 50 ms polls would have made ~20 requests per question.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const polls = Object.values(sim.stats().requests['requests.status'] ?? {}).reduce((a, b) => a + b, 0);
    expect(polls).toBeLessThanOrEqual(4);
    expect(paced.every((key) => key === statusPollKey(DEMO.siteId))).toBe(true);
    expect(paced.length).toBeGreaterThan(0);
  });

  it('ends a request the API no longer knows (404) as gone, once the id is older than the grace for new ones', async () => {
    const outcome = await watch(poller(), randomUUID(), { acceptedAt: Date.now() - 30_000 });
    expect(outcome).toMatchObject({ kind: 'gone', error: expect.stringMatching(/^status lookup: 404 /) });
    const shortGrace = await watch(poller({ newRequestGraceMs: 100 }), randomUUID());
    expect(shortGrace).toMatchObject({ kind: 'gone', error: 'status lookup: 404 request not found' });
  });

  it('polls a new id again while the API does not know it yet (404 within the grace), until it answers', async () => {
    // An eventually consistent deployment: for 300 ms after the submit its status lookup answers 404.
    sim.setFaults({ 'requests.status': { newRequestNotFoundMs: 300 } });
    const ids = await Promise.all(Array.from({ length: 5 }, () => submit()));
    const outcomes = await Promise.all(ids.map((id) => watch(poller({ intervalMs: 50 }), id, { firstPollAt: Date.now() })));
    expect(outcomes.map((o) => o.kind === 'finished' && o.status.status)).toEqual(ids.map(() => 'completed'));
    expect(sim.stats().requests['requests.status']?.['404']).toBeGreaterThanOrEqual(5);
  });

  it('a new id still unknown at the deadline times out with the 404 as its last error', async () => {
    sim.setFaults({ 'requests.status': { newRequestNotFoundMs: 10_000 } });
    const id = await submit();
    const outcome = await watch(poller(), id, { firstPollAt: Date.now(), deadline: Date.now() + 300 });
    expect(outcome).toEqual({ kind: 'timed_out', lastError: '404 request not found' });
  });

  it('times out after the deadline, having polled at least once, with the last retryable error', async () => {
    sim.setFaults({ 'chat.async': { processingDelayMs: 5_000 } });
    const id = await submit();
    sim.setFaults({ 'chat.async': { processingDelayMs: 5_000 }, 'requests.status': { failRate: 1 } });
    const outcome = await watch(poller(), id, { firstPollAt: Date.now(), deadline: Date.now() + 300 });
    expect(outcome).toMatchObject({ kind: 'timed_out', lastError: expect.stringMatching(/^500 /) });
    // Resumed after its deadline: polled once anyway (the answer may have come meanwhile).
    sim.setFaults({});
    const late = await watch(poller(), id, { firstPollAt: Date.now(), deadline: Date.now() - 1 });
    expect(late).toMatchObject({ kind: 'timed_out' });
    expect(sim.stats().requests['requests.status']?.['200']).toBe(1);
  });

  it('stops watching when the activity is cancelled, rejecting with the reason', async () => {
    sim.setFaults({ 'chat.async': { processingDelayMs: 5_000 } });
    const p = poller();
    const id = await submit();
    const controller = new AbortController();
    const pending = watch(p, id, { signal: controller.signal });
    expect(p.size).toBe(1);
    const reason = new Error('cancelled by the workflow');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(p.size).toBe(0);
  });

  it('heartbeats for a request only once it is older than beatAfterMs, then every beatEveryMs', async () => {
    const p = poller({ beatAfterMs: 600, beatEveryMs: 100 });
    const fast = await submit();
    sim.setFaults({ 'chat.async': { processingDelayMs: 1_500 } });
    const slow = await submit();
    let fastBeats = 0;
    let slowBeats = 0;
    await Promise.all([
      watch(p, fast, { heartbeat: () => void (fastBeats += 1) }),
      watch(p, slow, { heartbeat: () => void (slowBeats += 1) }),
    ]);
    expect(fastBeats).toBe(0);
    expect(slowBeats).toBeGreaterThanOrEqual(5);
  });

  it("a watch's own beatAfterMs (from its activity's heartbeat timeout) wins over the poller's", async () => {
    const p = poller({ beatAfterMs: 60_000, beatEveryMs: 100 });
    sim.setFaults({ 'chat.async': { processingDelayMs: 1_500 } });
    const [own, inherited] = await Promise.all([submit(), submit()]);
    let ownBeats = 0;
    let pollerBeats = 0;
    await Promise.all([
      watch(p, own, { beatAfterMs: 300, heartbeat: () => void (ownBeats += 1) }),
      watch(p, inherited, { heartbeat: () => void (pollerBeats += 1) }),
    ]);
    expect(ownBeats).toBeGreaterThanOrEqual(5);
    expect(pollerBeats).toBe(0);
  });
});
