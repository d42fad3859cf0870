import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
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
  /** SITECHAT_RUNS_DIR: results, plans and reports. @default ./runs */
  runsDir: string;
  /** SITECHAT_RATE_LIMIT: requests per second per API path (spec §8); 0 turns the limits off. @default 5 */
  ratePerSecond: number;
  /** SITECHAT_POLL_INTERVAL_MS: status polling interval; the spec recommends 1–2 s. @default 1000 */
  pollIntervalMs: number;
  /** SITECHAT_MAX_CONCURRENT_ASKS: questions one worker waits on at once. @default 500 */
  maxConcurrentAsks: number;
  /**
   * SITECHAT_POLL_SCOPE: how the API counts status polls. `path` (spec §8: per path, and each request has its own)
   * polls every question at the poll interval; `route` paces all status polls of a site together at the rate limit.
   * Under `path`, a 429 on a poll switches that site to `route` for the worker's lifetime. @default 'path'
   */
  pollScope: PollScope;
  /**
   * SITECHAT_GRADERS_DIR: the only directory custom grader modules load from; a module path in a run resolves
   * against it and must stay inside it. The CLI's own worker defaults it to the run config's directory.
   * @default none: custom graders are refused
   */
  gradersDir?: string;
  /** SITECHAT_JUDGE_*: the LLM judge (its key held in a `Secret`). @default none: judge assertions make the row `error` */
  judge?: JudgeSettings;
}

export const PollScope = { path: 'path', route: 'route' } as const;
export type PollScope = (typeof PollScope)[keyof typeof PollScope];

function pollScopeFrom(env: NodeJS.ProcessEnv): PollScope {
  const raw = env.SITECHAT_POLL_SCOPE;
  if (raw === undefined || raw === '') return PollScope.path;
  if (raw === PollScope.path || raw === PollScope.route) return raw;
  throw new ConfigError(`SITECHAT_POLL_SCOPE must be "path" or "route", got "${raw}"`);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
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
    ratePerSecond: overrides.ratePerSecond ?? numberFrom(env, 'SITECHAT_RATE_LIMIT', 5),
    pollIntervalMs: overrides.pollIntervalMs ?? numberFrom(env, 'SITECHAT_POLL_INTERVAL_MS', 1000, 1),
    maxConcurrentAsks: overrides.maxConcurrentAsks ?? numberFrom(env, 'SITECHAT_MAX_CONCURRENT_ASKS', 500, 1, true),
    pollScope: overrides.pollScope ?? pollScopeFrom(env),
    gradersDir: 'gradersDir' in overrides ? overrides.gradersDir : gradersDirFrom(env),
    judge: 'judge' in overrides ? overrides.judge : judgeSettingsFromEnv(env),
  };
}
