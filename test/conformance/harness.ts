import { request } from 'undici';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { SiteChatClient } from '../../src/api';
import { DEMO, startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../src/sim';

/**
 * The conformance suite drives the simulator through the project's typed client, as the runner does.
 * Requests the client refuses to send (it validates bodies and bounds first) go through `raw`, so the
 * server's answer to them is documented too.
 */
export interface Harness {
  sim: SimulatorHandle;
  client: SiteChatClient;
  /** A client with another key (same base URL). */
  clientWithKey(apiKey: string): SiteChatClient;
  raw(method: 'GET' | 'POST', path: string, body?: string, apiKey?: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

export const SITE = DEMO.siteId;
export const EMAIL = 'conformance@example.com';

export function useHarness(options: SimulatorOptions = {}): () => Harness {
  let h: Harness | undefined;
  const extra: SiteChatClient[] = [];
  beforeAll(async () => {
    const sim = await startSimulator({ rateLimit: 0, latencyScale: 0.01, ...options });
    const clientWithKey = (apiKey: string): SiteChatClient => {
      const c = new SiteChatClient({ baseUrl: sim.baseUrl, apiKey });
      extra.push(c);
      return c;
    };
    h = {
      sim,
      client: new SiteChatClient({ baseUrl: sim.baseUrl, apiKey: DEMO.apiKey }),
      clientWithKey,
      async raw(method, path, body, apiKey = DEMO.apiKey) {
        const res = await request(`${sim.baseUrl}${path}`, { method, body, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' } });
        return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
      },
    };
  });
  afterEach(() => {
    h?.sim.reset();
    h?.sim.setFaults({});
  });
  afterAll(async () => {
    await Promise.all([h?.client.close(), ...extra.map((c) => c.close())]);
    await h?.sim.close();
  });
  return () => {
    if (!h) throw new Error('harness not started');
    return h;
  };
}

/** Asserts that a client call fails with the given error class, HTTP status and API `error` string. */
export async function expectApiError(call: Promise<unknown>, name: string, status: number, error: string): Promise<void> {
  await expect(call).rejects.toMatchObject({ name, status, error });
}

/** Submits a chat request and lets simulated time pass until it has settled. */
export async function completedRequest(h: Harness, message = 'How do I reset my password?'): Promise<{ session_id: string; request_id: string }> {
  const { session_id, request_id } = await h.client.chat.submit(SITE, { message, email: EMAIL });
  h.sim.advanceTime(31_000);
  return { session_id, request_id };
}
