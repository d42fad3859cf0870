import { existsSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Secret } from '../api/secret';
import { ConfigError } from '../shared/configError';
import { parseDuration } from '../config/duration';
import { parseStoreUrl } from '../store/pg/database';
import { storeUrlFromEnv } from '../store/open';
import { judgeSettingsFromEnv, type JudgeSettings } from '../grading/judge/settings';

/**
 * Everything a worker needs that must never travel through Temporal: the API key above all. Read from the
 * worker's environment; workflows carry only the site id.
 */
export interface WorkerConfig {
  /** SITECHAT_BASE_URL, ending in /api/v1. */
  baseUrl: string;
  /** SITECHAT_API_KEY. Held here and in the HTTP client only. */
  apiKey: string;
  /** SITECHAT_RUNS_DIR: results, plans and reports (with the PostgreSQL store: report files and caches only). @default ./runs */
  runsDir: string;
  /**
   * SITECHAT_STORE_URL: `postgres://user:password@host:5432/database` selects the PostgreSQL results store, shared by
   * workers on several hosts. Held in a `Secret` (it may carry a password). @default none: the file store in `runsDir`
   */
  storeUrl?: Secret;
  /** SITECHAT_RATE_LIMIT: requests per second per API path (spec §8); 0 turns the limits off. @default 5 */
  ratePerSecond: number;
  /** SITECHAT_POLL_INTERVAL_MS: status polling interval; the spec recommends 1–2 s. @default 1000 */
  pollIntervalMs: number;
  /**
   * SITECHAT_NEW_REQUEST_GRACE_MS: a status lookup that answers 404 `request not found` for a request the API returned
   * less than this long ago is polled again, not final (an eventually consistent deployment may not know a new id for
   * a moment); 0 makes every such 404 final. @default 30000
   */
  newRequestGraceMs?: number;
  /** SITECHAT_MAX_CONCURRENT_ASKS: questions one worker waits on at once. @default 500 */
  maxConcurrentAsks: number;
  /**
   * SITECHAT_POLL_SCOPE: how the API counts status polls. `path` (spec §8: per path, and each request has its own)
   * polls every question at the poll interval; `route` paces all status polls of a site together at the rate limit.
   * Under `path`, a 429 on a poll switches that site to `route` for the worker's lifetime. @default 'path'
   */
  pollScope: PollScope;
  /**
   * SITECHAT_EGRESS_IPS: how many distinct client IPs the worker fleet reaches the API from. The API counts per IP and
   * path, so the cluster may send this many times the rate per path of a site; each host still sends at most the rate.
   * @default 1
   */
  egressIps: number;
  /** SITECHAT_SITE_RATE_LIMITS (`site-a=10,site-b=2`): sites whose budget differs from `ratePerSecond`. @default none */
  siteRates: Record<string, number>;
  /**
   * SITECHAT_PACER_DIR: where the worker processes of one host share their request windows (the API counts the
   * host's IP, not each process). Every worker of a host must see the same directory. @default `<tmp>/sitechat-pacer-<user>`
   */
  pacerDir: string;
  /**
   * SITECHAT_GRADERS_DIR: the only directory custom grader modules load from; a module path in a run resolves
   * against it and must stay inside it. The CLI's own worker defaults it to the run config's directory.
   * @default none: custom graders are refused
   */
  gradersDir?: string;
  /**
   * SITECHAT_HEAP_GROWTH_PERCENT: how far V8 lets a heap grow past what survived its last full collection (see
   * `limitHeapGrowth`); 0 leaves V8's own choice (up to 4×, which took a busy worker past 700 MiB). @default 30
   */
  heapGrowthPercent?: number;
  /** SITECHAT_JUDGE_*: the LLM judge (its key held in a `Secret`). @default none: judge assertions make the row `error` */
  judge?: JudgeSettings;
  /**
   * SITECHAT_STORE_OUTAGE_LIMIT: how long one store operation waits out a results store that cannot be reached (a
   * database restart, a fail-over) before it fails; the run's rows wait meanwhile, nothing is lost or asked twice.
   * @default 1 hour (as long as feedback and closes wait out an API outage)
   */
  storeOutageLimitMs?: number;
  /**
   * Set by the CLI when `baseUrl` is the simulator it started itself (no SITECHAT_BASE_URL), with `judge` true when
   * the judge is the simulator's judge route too. Reports say so. Never read from the environment.
   */
  builtInSimulator?: { judge: boolean };
}

/** SITECHAT_STORE_OUTAGE_LIMIT's default: the same hour feedback and closes wait out an API outage. */
export const DEFAULT_STORE_OUTAGE_LIMIT_MS = 3_600_000;

/** SITECHAT_NEW_REQUEST_GRACE_MS's default: a new request id's 404s are polled again for 30 s. */
export const DEFAULT_NEW_REQUEST_GRACE_MS = 30_000;

/** Keeps a busy worker's heaps near what is alive, at the same speed (BENCHMARKS.md, "Worker memory"). */
export const DEFAULT_HEAP_GROWTH_PERCENT = 30;

export const PollScope = { path: 'path', route: 'route' } as const;
export type PollScope = (typeof PollScope)[keyof typeof PollScope];

function pollScopeFrom(env: NodeJS.ProcessEnv): PollScope {
  const raw = env.SITECHAT_POLL_SCOPE;
  if (raw === undefined || raw === '') return PollScope.path;
  if (raw === PollScope.path || raw === PollScope.route) return raw;
  throw new ConfigError(`SITECHAT_POLL_SCOPE must be "path" or "route", got "${raw}"`);
}

/**
 * @param min the smallest value that works: a worker with 0 slots would accept work and never do it, a 0 ms poll
 * interval polls in a tight loop.
 * @param integer counts (slots) must be whole numbers.
 */
function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, integer = false): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new ConfigError(`${name} must be a ${integer ? 'whole number' : 'number'} >= ${min}, got "${raw}"`);
  }
  return value;
}

function durationFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  try {
    const ms = parseDuration(raw);
    if (ms > 0) return ms;
  } catch {
    // the message below says what is expected
  }
  throw new ConfigError(`${name} must be a duration above zero such as "30m" or "2h", got "${raw}"`);
}

function integerFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const value = numberFrom(env, name, fallback, min);
  if (!Number.isInteger(value)) throw new ConfigError(`${name} must be a whole number >= ${min}, got "${env[name]}"`);
  return value;
}

/** `site-a=10,site-b=2` → { 'site-a': 10, 'site-b': 2 } */
function siteRatesFrom(env: NodeJS.ProcessEnv): Record<string, number> {
  const raw = env.SITECHAT_SITE_RATE_LIMITS;
  const rates: Record<string, number> = {};
  if (raw === undefined || raw.trim() === '') return rates;
  for (const part of raw.split(',')) {
    const [site, value, extra] = part.split('=').map((s) => s.trim());
    const rate = Number(value);
    if (!site || value === undefined || value === '' || extra !== undefined || !Number.isFinite(rate) || rate <= 0) {
      throw new ConfigError(`SITECHAT_SITE_RATE_LIMITS must look like "site-a=10,site-b=2" (requests per second > 0), got "${part.trim()}" in "${raw}"`);
    }
    rates[site] = rate;
  }
  return rates;
}

function defaultPacerDir(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = String(process.getuid?.() ?? 'user');
  }
  return join(tmpdir(), `sitechat-pacer-${user}`);
}

/** SITECHAT_STORE_URL, checked now so a worker with a bad one fails at start; the error never echoes the URL. */
function storeUrlOf(env: NodeJS.ProcessEnv): Secret | undefined {
  const url = storeUrlFromEnv(env);
  if (url === undefined) return undefined;
  try {
    parseStoreUrl(url);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return new Secret(url);
}

function gradersDirFrom(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SITECHAT_GRADERS_DIR?.trim();
  if (raw === undefined || raw === '') return undefined;
  const dir = resolve(raw);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`SITECHAT_GRADERS_DIR must be an existing directory, got "${raw}"`);
  return dir;
}

/** Reads the worker configuration; `overrides` win (the embedded simulator supplies its own URL and key). */
export function workerConfigFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  const baseUrl = overrides.baseUrl ?? env.SITECHAT_BASE_URL;
  const apiKey = overrides.apiKey ?? env.SITECHAT_API_KEY;
  if (!baseUrl) throw new ConfigError('SITECHAT_BASE_URL is not set: give the API base address ending in /api/v1');
  if (!apiKey) throw new ConfigError('SITECHAT_API_KEY is not set: the worker needs the tenant API key in its environment');
  return {
    baseUrl,
    apiKey,
    runsDir: resolve(overrides.runsDir ?? env.SITECHAT_RUNS_DIR ?? 'runs'),
    storeUrl: 'storeUrl' in overrides ? overrides.storeUrl : storeUrlOf(env),
    ratePerSecond: overrides.ratePerSecond ?? numberFrom(env, 'SITECHAT_RATE_LIMIT', 5),
    pollIntervalMs: overrides.pollIntervalMs ?? numberFrom(env, 'SITECHAT_POLL_INTERVAL_MS', 1000, 1),
    newRequestGraceMs: overrides.newRequestGraceMs ?? numberFrom(env, 'SITECHAT_NEW_REQUEST_GRACE_MS', DEFAULT_NEW_REQUEST_GRACE_MS),
    maxConcurrentAsks: overrides.maxConcurrentAsks ?? numberFrom(env, 'SITECHAT_MAX_CONCURRENT_ASKS', 500, 1, true),
    pollScope: overrides.pollScope ?? pollScopeFrom(env),
    egressIps: overrides.egressIps ?? integerFrom(env, 'SITECHAT_EGRESS_IPS', 1, 1),
    siteRates: overrides.siteRates ?? siteRatesFrom(env),
    pacerDir: resolve(overrides.pacerDir ?? (env.SITECHAT_PACER_DIR || defaultPacerDir())),
    gradersDir: 'gradersDir' in overrides ? overrides.gradersDir : gradersDirFrom(env),
    heapGrowthPercent: overrides.heapGrowthPercent ?? integerFrom(env, 'SITECHAT_HEAP_GROWTH_PERCENT', DEFAULT_HEAP_GROWTH_PERCENT, 0),
    judge: 'judge' in overrides ? overrides.judge : judgeSettingsFromEnv(env),
    builtInSimulator: overrides.builtInSimulator,
    storeOutageLimitMs: overrides.storeOutageLimitMs ?? durationFrom(env, 'SITECHAT_STORE_OUTAGE_LIMIT', DEFAULT_STORE_OUTAGE_LIMIT_MS),
  };
}
