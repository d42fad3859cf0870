import { request } from 'undici';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DEMO_API_KEY, Plan, startSimulator, type DocumentInput, type FixturesInput, type SimulatorHandle, type SimulatorOptions } from '../../../src/sim';
import { composeAnswer, type ComposedAnswer } from '../../../src/sim/kb/answer';
import { findModel } from '../../../src/sim/kb/models';
import { Simulator } from '../../../src/sim/simulator';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  key?: string | null;
  /** Sent as X-Forwarded-For (the simulator trusts it only with `trustForwardedFor`). */
  ip?: string;
  /** A raw body (sent as is) instead of JSON. */
  raw?: string;
  /** For `/__sim` paths: sent as `X-Admin-Token` instead of the simulator's own token ('' sends none). */
  adminToken?: string;
}

/** A small HTTP client for the simulator: paths are relative to `/api/v1` unless they start with `/__sim`. */
export class SimClient {
  constructor(readonly sim: SimulatorHandle) {}

  async call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const url = path.startsWith('/__sim') ? `${this.sim.origin}${path}` : `${this.sim.baseUrl}${path}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = opts.key === undefined ? DEMO_API_KEY : opts.key;
    if (key !== null) headers['x-api-key'] = key;
    if (opts.ip) headers['x-forwarded-for'] = opts.ip;
    // Admin routes want the simulator's admin token when it has one (listening beyond loopback, or given).
    if (path.startsWith('/__sim') && this.sim.adminToken !== null && opts.adminToken === undefined) headers.authorization = `Bearer ${this.sim.adminToken}`;
    if (opts.adminToken) headers['x-admin-token'] = opts.adminToken;
    const payload = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const res = await request(url, { method, headers, body: payload });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string, opts?: CallOptions): Promise<ApiResponse<T>> {
    return this.call<T>('GET', path, undefined, opts);
  }

  post<T = Record<string, unknown>>(path: string, body: unknown, opts?: CallOptions): Promise<ApiResponse<T>> {
    return this.call<T>('POST', path, body, opts);
  }

  /** Async chat on a site (default demo-site). */
  chatAsync(body: Record<string, unknown>, site = 'demo-site', opts?: CallOptions): Promise<ApiResponse> {
    return this.post(`/m2m/sites/${site}/chat/async`, body, opts);
  }

  chatSync(body: Record<string, unknown>, site = 'demo-site', opts?: CallOptions): Promise<ApiResponse> {
    return this.post(`/m2m/sites/${site}/chat`, body, opts);
  }

  status(requestId: string, site = 'demo-site', opts?: CallOptions): Promise<ApiResponse> {
    return this.get(`/m2m/sites/${site}/chat/requests/${requestId}`, opts);
  }

  /** Submits async and moves simulated time past the longest completion (30 s), so the request is settled. */
  async completed(body: Record<string, unknown>, site = 'demo-site'): Promise<{ request_id: string; session_id: string }> {
    const res = await this.chatAsync(body, site);
    if (res.status !== 200) throw new Error(`chat/async: ${res.status} ${JSON.stringify(res.body)}`);
    this.sim.advanceTime(31_000);
    return res.body as { request_id: string; session_id: string };
  }
}

/**
 * One simulator per test file (rate limiting off unless asked), reset after every test.
 * Returns a getter because the simulator starts in `beforeAll`.
 */
export function useSimulator(options: SimulatorOptions = {}): () => SimClient {
  let client: SimClient | undefined;
  beforeAll(async () => {
    client = new SimClient(await startSimulator({ rateLimit: 0, latencyScale: 0.01, ...options }));
  });
  afterEach(() => {
    client?.sim.reset();
    client?.sim.setFaults({});
  });
  afterAll(async () => client?.sim.close());
  return () => {
    if (!client) throw new Error('simulator not started');
    return client;
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const EMAIL = 'qa@example.com';

/** Answers of the default model (seed 1) from a site of `documents`, composed as the chat endpoints compose them. */
export function answererFor(documents: DocumentInput[]): (message: string) => ComposedAnswer {
  const fixtures: FixturesInput = { tenants: [{ id: 't', plan: Plan.level3, keys: [{ key: 'k' }], sites: [{ id: 's', documents }] }] };
  const kb = new Simulator({ fixtures, seed: 1 }).registry.site('s')?.knowledge;
  const model = findModel('gpt-4o-mini');
  if (!kb || !model) throw new Error('site or model not loaded');
  return (message) => composeAnswer(kb, { message, model, seed: 1 });
}

/** Documents that make a word of the others rare (IDF ≥ 3), as in a real knowledge base: `n` small farm pages. */
export function fillerDocuments(n = 30): { title: string; content: string }[] {
  return Array.from({ length: n }, (_, i) => ({ title: `Farm ${i + 1}`, content: `Farm number ${i + 1} keeps sheep and grows barley on the hill.` }));
}
