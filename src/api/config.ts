import type { Dispatcher } from 'undici';
import type { Endpoint } from './endpoints';
import { ConfigurationError } from './errors';
import { REDACTED } from './secret';
import { shownUrl } from './shownUrl';

/** What the {@link SiteChatClientOptions.onResponse} hook receives. Holds no key and no path values. */
export interface ResponseInfo {
  method: 'GET' | 'POST';
  /** Path template, e.g. `/m2m/sites/{site_id}/chat/async`. */
  path: string;
  /** HTTP status; undefined when no response arrived (network error, timeout, abort). */
  status?: number;
  durationMs: number;
}

/** One call as an {@link ApiObserver} sees it: the endpoint, its path parameters and body. Never the key. */
export interface ObservedCall {
  endpoint: Endpoint;
  params: Readonly<Record<string, unknown>>;
  body?: unknown;
}

/**
 * Watches every call of a client, for metrics and traces (src/observability/apiObserver.ts): the client imports
 * neither, whoever builds it hands one in.
 */
export interface ApiObserver {
  /**
   * Runs one call: must call `send` once and return what it returns (or throw what it throws); `send` reports the
   * HTTP status to `onStatus` as soon as a response came. A trace wraps the call in its span here.
   */
  around<T>(call: ObservedCall, origin: URL, send: (onStatus: (status: number) => void) => Promise<T>): Promise<T>;
  /** After every exchange: its status (undefined when no response came: network error, timeout, abort) and duration. */
  exchanged(call: ObservedCall, status: number | undefined, durationMs: number): void;
}

export interface SiteChatClientOptions {
  /** Base URL including the version segment, e.g. `http://localhost:8080/api/v1` (spec §9). A trailing slash is accepted. */
  baseUrl: string;
  /** M2M API key, sent only as `X-API-Key`; never logged, serialised or echoed in errors. */
  apiKey: string;
  /**
   * Dispatcher for every request (tests inject a MockAgent or an Agent). An injected dispatcher is
   * not closed by {@link SiteChatClient.close}.
   * @default a keep-alive undici `Pool` for the base URL's origin, owned and closed by the client
   */
  dispatcher?: Dispatcher;
  /** TCP/TLS connect timeout of the owned pool. @default 10_000 */
  connectTimeoutMs?: number;
  /** Time to wait for response headers, every call except sync chat. @default 30_000 */
  headersTimeoutMs?: number;
  /** Time to wait for response headers of sync chat, which blocks up to 60 s server-side. @default 75_000 */
  syncChatTimeoutMs?: number;
  /** Maximum idle time between two chunks of a response body. @default 30_000 */
  bodyTimeoutMs?: number;
  /** How long an idle keep-alive socket stays open when the server sends no hint. @default 10_000 */
  keepAliveTimeoutMs?: number;
  /** Maximum sockets of the owned pool. @default unlimited (undici's default) */
  connections?: number;
  /** `User-Agent` header. @default 'sitechat-runner' */
  userAgent?: string;
  /** Called after every HTTP exchange, for metrics. Exceptions thrown by the hook are ignored. */
  onResponse?: (info: ResponseInfo) => void;
  /** Metrics and traces of every call. @default none: the client measures and traces nothing */
  observer?: ApiObserver;
}

export interface ResolvedConfig {
  /** Scheme, host and port, e.g. `http://localhost:8080`. */
  origin: string;
  /** Path prefix without trailing slash, e.g. `/api/v1`. */
  basePath: string;
  /** `origin + basePath`, safe to print (credentials are rejected). */
  baseUrl: string;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  syncChatTimeoutMs: number;
  bodyTimeoutMs: number;
  keepAliveTimeoutMs: number;
  connections?: number;
  userAgent: string;
  onResponse?: (info: ResponseInfo) => void;
  observer?: ApiObserver;
}

/** Header-safe visible ASCII only; undici would otherwise throw an error of its own. */
const KEY_PATTERN = /^[\x21-\x7e]+$/;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`${name} must be a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/**
 * Validates the base URL: http(s), no credentials/query/fragment, path ending in `/api/v1` (spec §9). Its messages show
 * the URL as `shownUrl` does (no userinfo, query or fragment), then through `scrub` (the API key, wherever it was put).
 */
export function parseBaseUrl(raw: string, scrub: (text: string) => string = (t) => t): { origin: string; basePath: string } {
  const shown = scrub(shownUrl(raw));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(`SITECHAT_BASE_URL is not a valid URL, got ${JSON.stringify(shown)} — use e.g. http://localhost:8080/api/v1`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError(`SITECHAT_BASE_URL must not contain credentials, got ${shown} — put the API key in SITECHAT_API_KEY`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`SITECHAT_BASE_URL must use http or https, got ${shown}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigurationError(`SITECHAT_BASE_URL must not have a query or fragment, got ${shown}`);
  }
  const basePath = url.pathname.replace(/\/+$/, '');
  if (!basePath.endsWith('/api/v1')) {
    throw new ConfigurationError(`SITECHAT_BASE_URL must end with /api/v1, got ${shown} — e.g. ${scrub(url.origin + basePath)}/api/v1`);
  }
  return { origin: url.origin, basePath };
}

/** Checks every option and applies defaults; throws {@link ConfigurationError} without echoing the key. */
export function resolveConfig(options: SiteChatClientOptions): ResolvedConfig {
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    throw new ConfigurationError('SITECHAT_API_KEY is empty — set it to an M2M API key of the tenant that owns the site');
  }
  if (!KEY_PATTERN.test(options.apiKey)) {
    throw new ConfigurationError('SITECHAT_API_KEY contains whitespace or non-ASCII characters — copy the key again without surrounding spaces');
  }
  const { origin, basePath } = parseBaseUrl(String(options.baseUrl), (text) =>
    text.split(options.apiKey).join(REDACTED),
  );
  if (options.connections !== undefined && (!Number.isInteger(options.connections) || options.connections < 1)) {
    throw new ConfigurationError(`connections must be a positive integer, got ${String(options.connections)}`);
  }
  return {
    origin,
    basePath,
    baseUrl: origin + basePath,
    connectTimeoutMs: positive('connectTimeoutMs', options.connectTimeoutMs, 10_000),
    headersTimeoutMs: positive('headersTimeoutMs', options.headersTimeoutMs, 30_000),
    syncChatTimeoutMs: positive('syncChatTimeoutMs', options.syncChatTimeoutMs, 75_000),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, 30_000),
    keepAliveTimeoutMs: positive('keepAliveTimeoutMs', options.keepAliveTimeoutMs, 10_000),
    connections: options.connections,
    userAgent: options.userAgent ?? 'sitechat-runner',
    onResponse: options.onResponse,
    observer: options.observer,
  };
}
