import { performance } from 'node:perf_hooks';
import { Pool, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { ResolvedConfig } from './config';
import { type Endpoint, endpointLabel, fillPath, queryString } from './endpoints';
import { ConfigurationError } from './errors';
import { connectionError, errorFromResponse } from './httpErrors';
import type { Secret } from './secret';
import { parseResponse } from './validation';

/** Per-call options. */
export interface RequestOptions {
  /** Aborts the call; the signal's reason is thrown unchanged (Temporal cancellation propagates). */
  signal?: AbortSignal;
  /** Overrides the headers timeout of this call. @default the client's timeout for the endpoint */
  timeoutMs?: number;
}

/** Everything one API call needs, built by a resource method. */
export interface Call<S extends z.ZodType> {
  endpoint: Endpoint;
  params: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, string | number | undefined>>;
  body?: unknown;
  schema: S;
  /** Headers timeout of this endpoint. @default config.headersTimeoutMs */
  headersTimeoutMs?: number;
}

/**
 * Sends requests through one undici dispatcher and turns responses into parsed values or typed errors.
 * Never retries: Temporal activity retry policies decide, using `retryable` / the error class name.
 */
export class Transport {
  readonly config: ResolvedConfig;
  readonly #key: Secret;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #origin: URL;
  #closing?: Promise<void>;

  constructor(config: ResolvedConfig, key: Secret, dispatcher?: Dispatcher) {
    this.config = config;
    this.#key = key;
    this.#ownsDispatcher = dispatcher === undefined;
    this.#origin = new URL(config.origin);
    this.#dispatcher =
      dispatcher ??
      new Pool(config.origin, {
        connect: { timeout: config.connectTimeoutMs },
        connections: config.connections ?? null,
        keepAliveTimeout: config.keepAliveTimeoutMs,
        headersTimeout: config.headersTimeoutMs,
        bodyTimeout: config.bodyTimeoutMs,
      });
  }

  scrub(text: string): string {
    return this.#key.scrub(text);
  }

  async call<S extends z.ZodType>(call: Call<S>, options: RequestOptions = {}): Promise<z.output<S>> {
    const observer = this.config.observer;
    if (observer === undefined) return this.#call(call, options);
    return observer.around(call, this.#origin, (onStatus) => this.#call(call, options, onStatus));
  }

  async #call<S extends z.ZodType>(call: Call<S>, options: RequestOptions, onStatus?: (status: number) => void): Promise<z.output<S>> {
    const label = endpointLabel(call.endpoint);
    if (this.#closing !== undefined) {
      throw new ConfigurationError(`${label} called after close() — create a new SiteChatClient`, { endpoint: label });
    }
    const path = this.config.basePath + fillPath(call.endpoint, call.params) + queryString(call.query);
    const headersTimeout = options.timeoutMs ?? call.headersTimeoutMs ?? this.config.headersTimeoutMs;
    const started = performance.now();
    let res: { status: number; retryAfter?: string | string[]; text: string };
    try {
      res = await this.#exchange(path, call, headersTimeout, options.signal);
    } catch (err) {
      this.#report(call, undefined, started);
      if (options.signal?.aborted === true) throw options.signal.reason ?? err;
      const timeoutMs = { connect: this.config.connectTimeoutMs, headers: headersTimeout, body: this.config.bodyTimeoutMs };
      throw connectionError(err, { endpoint: label, origin: this.scrub(this.config.baseUrl), timeoutMs });
    }
    this.#report(call, res.status, started);
    onStatus?.(res.status);
    const scrub = (text: string): string => this.scrub(text);
    if (res.status < 200 || res.status > 299) {
      throw errorFromResponse({ status: res.status, endpoint: label, bodyText: res.text, retryAfter: res.retryAfter, scrub });
    }
    return parseResponse(call.schema, res.text, { endpoint: label, status: res.status, scrub });
  }

  async #exchange(path: string, call: Call<z.ZodType>, headersTimeout: number, signal?: AbortSignal) {
    const res = await this.#dispatcher.request({
      origin: this.config.origin,
      path,
      method: call.endpoint.method,
      headers: this.#headers(call.body !== undefined),
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
      headersTimeout,
      bodyTimeout: this.config.bodyTimeoutMs,
    });
    const text = await res.body.text();
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], text };
  }

  /** Closes the owned pool (idempotent); an injected dispatcher is left to its owner. */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher || this.#closing !== undefined) return this.#closing;
    this.#closing = this.#dispatcher.close();
    return this.#closing;
  }

  #headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      'x-api-key': this.#key.reveal(),
      accept: 'application/json',
      'user-agent': this.config.userAgent,
    };
    if (json) headers['content-type'] = 'application/json';
    return headers;
  }

  #report(call: Call<z.ZodType>, status: number | undefined, started: number): void {
    const durationMs = performance.now() - started;
    const { endpoint } = call;
    this.config.observer?.exchanged(call, status, durationMs);
    const hook = this.config.onResponse;
    if (hook === undefined) return;
    try {
      hook({ method: endpoint.method, path: endpoint.path, status, durationMs });
    } catch {
      // Metrics must never break an API call.
    }
  }
}
