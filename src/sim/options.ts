import { API_PREFIX, MAX_MESSAGE_LENGTH } from './constants';
import { resolveAdminToken } from './adminAuth';
import type { FaultConfig } from './faults/config';
import type { FixturesInput } from './fixtures';
import { MODEL_NAMES } from './kb/models';

/** What a chat request naming a closed session gets. */
export const ClosedSessionChat = {
  /** 409 `session is closed` (a closed session is archived and receives no new messages). */
  reject: 'reject',
  /** The message is accepted and answered; the session stays closed. */
  accept: 'accept',
} as const;
export type ClosedSessionChat = (typeof ClosedSessionChat)[keyof typeof ClosedSessionChat];

/** What closing a session the site has never seen returns. */
export const CloseUnknownSession = {
  /** 404 `session not found`. */
  notFound: 'not-found',
  /** 200 `{ status: 'ok' }`, nothing is created. */
  ok: 'ok',
} as const;
export type CloseUnknownSession = (typeof CloseUnknownSession)[keyof typeof CloseUnknownSession];

/** How the session list treats a `limit` outside 1..500. */
export const LimitPolicy = {
  /** 400 `invalid limit or offset`. */
  reject: 'reject',
  /** limit > 500 becomes 500, limit < 1 becomes the default 50. Non-numeric values are still 400. */
  clamp: 'clamp',
} as const;
export type LimitPolicy = (typeof LimitPolicy)[keyof typeof LimitPolicy];

export const RateLimitWindow = {
  /** A 1 s window opens at the first request on a (client IP, path) and resets 1 s later. */
  fixed: 'fixed',
  /** At most N requests in any trailing 1 s interval. */
  sliding: 'sliding',
} as const;
export type RateLimitWindow = (typeof RateLimitWindow)[keyof typeof RateLimitWindow];

/** What "request path" means for the rate limiter (spec §8 counts per client IP and path). */
export const RateLimitScope = {
  /** The path as requested: each status poll `/chat/requests/{id}` is a path of its own. */
  path: 'path',
  /**
   * The route: ids in the path other than the site and tenant are one `*`, so every status poll of a
   * site shares one budget (`…/sites/{site}/chat/requests/*`).
   */
  route: 'route',
} as const;
export type RateLimitScope = (typeof RateLimitScope)[keyof typeof RateLimitScope];

/** `feedback_submitted_at` when the same feedback value is submitted again. */
export const FeedbackResubmit = { original: 'original', omit: 'omit' } as const;
export type FeedbackResubmit = (typeof FeedbackResubmit)[keyof typeof FeedbackResubmit];

/** What a chat request with a `model` the simulator does not know gets. */
export const UnknownModel = {
  /** 400 `invalid payload`. */
  reject: 'reject',
  /** Answered with the site's default model. */
  fallback: 'fallback',
} as const;
export type UnknownModel = (typeof UnknownModel)[keyof typeof UnknownModel];

/** Which feedback identifiers must be UUIDs (else 400 `feedback must be 'good' or 'bad'`). */
export const FeedbackUuidCheck = { both: 'both', request: 'request', none: 'none' } as const;
export type FeedbackUuidCheck = (typeof FeedbackUuidCheck)[keyof typeof FeedbackUuidCheck];

/** Order of the session list (spec §4.1: not shown). */
export const SessionOrder = {
  /** Reverse creation order: a session created while a client pages shifts the later pages. */
  newestFirst: 'newest-first',
  /** Creation order: new sessions go to the end. */
  oldestFirst: 'oldest-first',
  /** No order asked of the store: a fixed order by a hash of the id, unrelated to time; a new session lands anywhere. */
  unsorted: 'unsorted',
} as const;
export type SessionOrder = (typeof SessionOrder)[keyof typeof SessionOrder];

/** Form of the ids the simulator hands out (request ids, and the session ids it creates); the spec says only "string". */
export const IdFormat = {
  /** Random v4 UUIDs; status and feedback refuse ids that are not UUIDs (see `feedbackUuidCheck`). */
  uuid: 'uuid',
  /**
   * Random strings of 2 to 120 characters: letters, digits, `+/=:._~-`, a space, `%`, `?`, `#` and non-ASCII letters.
   * Status and feedback check no id format (`feedbackUuidCheck` does not apply).
   */
  opaque: 'opaque',
} as const;
export type IdFormat = (typeof IdFormat)[keyof typeof IdFormat];

/** Form of the timestamps in responses; the spec says only "ISO 8601 strings". */
export const TimestampFormat = {
  /** `2026-05-01T10:00:00.123Z` */
  utc: 'utc',
  /** `2026-05-01T15:30:00.123456+05:30`: microseconds, and an offset that differs from one timestamp to the next. */
  offset: 'offset',
  /** `2026-05-01T10:00:00.123456`: UTC with no zone designator, as a naive datetime prints. */
  naive: 'naive',
} as const;
export type TimestampFormat = (typeof TimestampFormat)[keyof typeof TimestampFormat];

/** Body of API error responses (§7 shows JSON with `error`; rule 3: the 500 body of most endpoints is not shown). */
export const ErrorBody = {
  /** `{ "error": "…" }` (`application/json`). */
  json: 'json',
  /** An HTML page that names only the status (`text/html`), as a web framework or gateway renders errors. */
  html: 'html',
  /** No body. */
  empty: 'empty',
} as const;
export type ErrorBody = (typeof ErrorBody)[keyof typeof ErrorBody];

/** Body of the tenant limits (spec §4.7: fields not shown). */
export const LimitsBody = {
  /** Plan, rate limit, list bounds, chat limits, retention, `models`, sites. */
  full: 'full',
  /** The same without `models`. */
  noModels: 'no-models',
  /** `{}`. */
  empty: 'empty',
} as const;
export type LimitsBody = (typeof LimitsBody)[keyof typeof LimitsBody];

/** Form of `Retry-After` on a 429 (§7 rule 4: headers not shown). */
export const RetryAfterFormat = {
  /** Delay in seconds: `Retry-After: 1`. */
  seconds: 'seconds',
  /** An HTTP date that many seconds ahead: `Retry-After: Fri, 01 May 2026 10:00:01 GMT`. */
  httpDate: 'http-date',
} as const;
export type RetryAfterFormat = (typeof RetryAfterFormat)[keyof typeof RetryAfterFormat];

/** Options of {@link startSimulator}. Every field is optional. */
export interface SimulatorOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * Token the admin routes (`/__sim/…`) require, as `Authorization: Bearer …` or `X-Admin-Token`. Unset:
   * a random one is generated when `host` is not loopback (see `SimulatorHandle.adminToken`); on
   * loopback the admin routes are open. @default undefined
   */
  adminToken?: string;
  /** Fixtures file path or object (tenants, keys, sites, documents). @default datasets/knowledge-base.json */
  fixtures?: string | FixturesInput;
  /** Multiplies async/sync completion times (5–30 s) and the 60 s sync ceiling. @default 1 */
  latencyScale?: number;
  /** Requests per second per client IP and request path (see `rateLimitScope`); 0 disables rate limiting. @default 5 */
  rateLimit?: number;
  /** @default 'fixed' */
  rateLimitWindow?: RateLimitWindow;
  /** @default 'path' */
  rateLimitScope?: RateLimitScope;
  /** `Retry-After` header value (seconds) on 429; null sends no header. @default 1 */
  retryAfterSeconds?: number | null;
  /** @default 'seconds' */
  retryAfterFormat?: RetryAfterFormat;
  /** Use the first `X-Forwarded-For` address as the client IP (lets tests act as several clients). @default false */
  trustForwardedFor?: boolean;
  /** Seed of latencies, fault decisions and model noise (request and session ids are random UUIDs). @default 1 */
  seed?: number;
  /**
   * Per-request nondeterminism of the simulated models (`AnswerNoise`): the probability that an ask is answered
   * another way than usual. A number applies to every model; an object sets it per model name (`'*'`: the others).
   * @default 0 (every model answers a question the same way each time)
   */
  modelNoise?: number | Readonly<Record<string, number>>;
  /** Fault injection, off by default; changeable at runtime with `PUT /__sim/faults`. @default {} */
  faults?: FaultConfig;
  /** How long a chat request stays visible to status and feedback. @default 86_400_000 (24 h) */
  retentionMs?: number;
  /** @default 'reject' */
  closedSessionChat?: ClosedSessionChat;
  /** @default 'not-found' */
  closeUnknownSession?: CloseUnknownSession;
  /** @default 'reject' */
  listLimitPolicy?: LimitPolicy;
  /** @default 'original' */
  feedbackResubmit?: FeedbackResubmit;
  /** @default 'both' */
  feedbackUuidCheck?: FeedbackUuidCheck;
  /** @default 'reject' */
  unknownModel?: UnknownModel;
  /** Longest accepted `message`, in characters; longer is 400 `invalid payload`. @default 16000 (`MAX_MESSAGE_LENGTH`) */
  maxMessageLength?: number;
  /** Largest accepted request body; larger is 413. @default 1_048_576 */
  maxBodyBytes?: number;
  /** Sync chat ceiling before scaling by `latencyScale`. @default 60_000 */
  syncTimeoutMs?: number;
  /** Include `confidence_*` in the status response of a completed request. @default true */
  statusConfidence?: boolean;
  /** Include `confidence_*` in the sync chat answer ("omitted when unavailable", §2). @default true */
  syncConfidence?: boolean;
  /** @default 'newest-first' */
  sessionOrder?: SessionOrder;
  /** @default 'uuid' */
  idFormat?: IdFormat;
  /** @default 'utc' */
  timestamps?: TimestampFormat;
  /** @default 'json' */
  errorBody?: ErrorBody;
  /** @default 'full' */
  limitsBody?: LimitsBody;
  /** Add fields the spec does not list to every object of every API response body (errors included). @default false */
  extraFields?: boolean;
  /**
   * Path the API is served under, ending in `/api/v1` (§9), e.g. `/proxy/site-chat/api/v1` for a server behind a
   * path-routing proxy; `baseUrl` of the handle includes it. @default '/api/v1'
   */
  basePath?: string;
  /**
   * JSON file that keeps sessions, requests and feedback across restarts (read at start, written
   * debounced and on close). Unset: state lives in memory only. @default undefined
   */
  state?: string;
}

export type ResolvedOptions = Required<Omit<SimulatorOptions, 'fixtures' | 'faults' | 'state' | 'adminToken' | 'modelNoise'>> & {
  /** Noise rate per model name, `'*'` for the others. */
  modelNoise: Readonly<Record<string, number>>;
  /** null: admin routes open (loopback without a token). */
  adminToken: string | null;
};

export function resolveOptions(o: SimulatorOptions): ResolvedOptions {
  const host = o.host ?? '127.0.0.1';
  const latencyScale = o.latencyScale ?? 1;
  if (!(latencyScale >= 0)) throw new Error('simulator options: `latencyScale` must be a number >= 0');
  const rateLimit = o.rateLimit ?? 5;
  if (!Number.isInteger(rateLimit) || rateLimit < 0) throw new Error('simulator options: `rateLimit` must be an integer >= 0');
  return {
    port: o.port ?? 0,
    host,
    adminToken: resolveAdminToken(o.adminToken, host),
    latencyScale,
    rateLimit,
    rateLimitWindow: o.rateLimitWindow ?? RateLimitWindow.fixed,
    rateLimitScope: o.rateLimitScope ?? RateLimitScope.path,
    retryAfterSeconds: o.retryAfterSeconds === undefined ? 1 : o.retryAfterSeconds,
    trustForwardedFor: o.trustForwardedFor ?? false,
    seed: o.seed ?? 1,
    modelNoise: resolveModelNoise(o.modelNoise),
    retentionMs: o.retentionMs ?? 86_400_000,
    closedSessionChat: o.closedSessionChat ?? ClosedSessionChat.reject,
    closeUnknownSession: o.closeUnknownSession ?? CloseUnknownSession.notFound,
    listLimitPolicy: o.listLimitPolicy ?? LimitPolicy.reject,
    feedbackResubmit: o.feedbackResubmit ?? FeedbackResubmit.original,
    feedbackUuidCheck: o.feedbackUuidCheck ?? FeedbackUuidCheck.both,
    unknownModel: o.unknownModel ?? UnknownModel.reject,
    maxMessageLength: o.maxMessageLength ?? MAX_MESSAGE_LENGTH,
    maxBodyBytes: o.maxBodyBytes ?? 1_048_576,
    syncTimeoutMs: o.syncTimeoutMs ?? 60_000,
    statusConfidence: o.statusConfidence ?? true,
    syncConfidence: o.syncConfidence ?? true,
    retryAfterFormat: o.retryAfterFormat ?? RetryAfterFormat.seconds,
    sessionOrder: o.sessionOrder ?? SessionOrder.newestFirst,
    idFormat: o.idFormat ?? IdFormat.uuid,
    timestamps: o.timestamps ?? TimestampFormat.utc,
    errorBody: o.errorBody ?? ErrorBody.json,
    limitsBody: o.limitsBody ?? LimitsBody.full,
    extraFields: o.extraFields ?? false,
    basePath: resolveBasePath(o.basePath),
  };
}

/** `basePath` without a trailing slash; throws unless it is a plain path ending in `/api/v1` outside the admin routes. */
function resolveBasePath(raw: string | undefined): string {
  if (raw === undefined) return API_PREFIX;
  const path = raw.replace(/\/+$/, '');
  const dots = path.split('/').some((segment) => segment === '.' || segment === '..');
  if (!/^(\/[A-Za-z0-9._~-]+)*\/api\/v1$/.test(path) || dots || path.startsWith('/__sim/')) {
    throw new Error(`simulator options: \`basePath\` must be a path such as /proxy/site-chat/api/v1 (segments of letters, digits and ._~-, ending in /api/v1, not under /__sim), got ${JSON.stringify(raw)}`);
  }
  return path;
}

/** `modelNoise` as a per-model table; throws naming the model or value that is wrong. */
function resolveModelNoise(noise: SimulatorOptions['modelNoise']): Readonly<Record<string, number>> {
  const table: Record<string, number> = typeof noise === 'number' ? { '*': noise } : { ...(noise ?? {}) };
  for (const [model, rate] of Object.entries(table)) {
    if (model !== '*' && !MODEL_NAMES.includes(model)) {
      throw new Error(`simulator options: \`modelNoise\` names an unknown model "${model}" (known: ${MODEL_NAMES.join(', ')})`);
    }
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
      throw new Error(`simulator options: \`modelNoise\` of "${model}" must be a probability from 0 to 1`);
    }
  }
  return table;
}

/** The noise rate of one model under a resolved table. */
export function noiseRateOf(table: Readonly<Record<string, number>>, model: string): number {
  return table[model] ?? table['*'] ?? 0;
}
