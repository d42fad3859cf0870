/**
 * The judge's settings, from the worker's environment only (`SITECHAT_JUDGE_*`). The key is held in a `Secret`:
 * it never shows in JSON, inspection or error text, and never travels through Temporal.
 */
import { Secret } from '../../api/secret';
import { JudgeConfigError } from './errors';

/** Where and how the judge model is called. */
export interface JudgeSettings {
  /** SITECHAT_JUDGE_BASE_URL: an OpenAI-compatible API root, e.g. `http://localhost:11434/v1`. */
  baseUrl: string;
  /** SITECHAT_JUDGE_API_KEY, sent as `Authorization: Bearer …`. */
  apiKey: Secret;
  /** SITECHAT_JUDGE_MODEL (for Azure: the deployment name). */
  model: string;
  /** SITECHAT_JUDGE_RPM: judge calls per minute, per worker and per task queue; 0 = no limit. @default 60 */
  rpm: number;
  /**
   * SITECHAT_JUDGE_TIMEOUT_MS: one call's time-out, from the request to the reply's last byte (a body that trickles
   * in is cut too). At most {@link MAX_JUDGE_TIMEOUT_MS}. @default 60000
   */
  timeoutMs: number;
  /**
   * SITECHAT_JUDGE_MAX_ATTEMPTS: attempts per judgement on every retryable failure (429, 5xx, network errors,
   * time-outs, replies that are not a chat completion; backoff 1 s, 2 s, 4 s …). @default 6
   */
  maxAttempts: number;
  /**
   * SITECHAT_JUDGE_MAX_RETRY_AFTER_MS: the longest a 429's `Retry-After` holds a judgement before its next attempt;
   * a longer one is waited this long (the attempt still counts). 0 ignores `Retry-After`. @default 60000
   */
  maxRetryAfterMs: number;
  /** SITECHAT_JUDGE_TEMPERATURE: a number, or `none` to send none (models that accept only their default). @default 0 */
  temperature?: number;
  /** SITECHAT_JUDGE_RESPONSE_FORMAT: `json_object` asks for JSON mode; `none` for servers that reject it. @default json_object */
  jsonMode: boolean;
}

/** Defaults of the optional settings. */
export const JUDGE_DEFAULTS = { rpm: 60, timeoutMs: 60_000, maxAttempts: 6, maxRetryAfterMs: 60_000, temperature: 0, jsonMode: true } as const;

/**
 * The longest SITECHAT_JUDGE_TIMEOUT_MS: a judge activity attempt has 5 minutes (workflows/activityProxies.ts), and a
 * call cut by that time-out instead of its own would be retried by the activity policy, not within the judge's
 * attempts. 4 minutes leaves room for the wait for the worker's judge rate limit.
 */
export const MAX_JUDGE_TIMEOUT_MS = 240_000;

/**
 * Reads the judge settings; undefined when none of base URL, key and model is set (no judge configured).
 * Throws a `JudgeConfigError` naming the variable when the settings are incomplete or invalid.
 */
export function judgeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): JudgeSettings | undefined {
  const baseUrl = env.SITECHAT_JUDGE_BASE_URL?.trim();
  const apiKey = env.SITECHAT_JUDGE_API_KEY;
  const model = env.SITECHAT_JUDGE_MODEL?.trim();
  if (!baseUrl && !apiKey && !model) return undefined;
  const missing = [
    ['SITECHAT_JUDGE_BASE_URL', baseUrl],
    ['SITECHAT_JUDGE_API_KEY', apiKey],
    ['SITECHAT_JUDGE_MODEL', model],
  ].filter(([, v]) => !v).map(([name]) => name);
  if (missing.length > 0) {
    throw new JudgeConfigError(`judge settings incomplete: ${missing.join(', ')} not set (the judge needs base URL, API key and model; any non-empty key for servers without auth)`);
  }
  return {
    baseUrl: validBaseUrl(baseUrl as string),
    apiKey: new Secret(apiKey as string),
    model: model as string,
    rpm: number(env, 'SITECHAT_JUDGE_RPM', JUDGE_DEFAULTS.rpm, 0),
    timeoutMs: number(env, 'SITECHAT_JUDGE_TIMEOUT_MS', JUDGE_DEFAULTS.timeoutMs, 1, MAX_JUDGE_TIMEOUT_MS),
    maxAttempts: Math.floor(number(env, 'SITECHAT_JUDGE_MAX_ATTEMPTS', JUDGE_DEFAULTS.maxAttempts, 1)),
    maxRetryAfterMs: number(env, 'SITECHAT_JUDGE_MAX_RETRY_AFTER_MS', JUDGE_DEFAULTS.maxRetryAfterMs, 0),
    temperature: temperature(env.SITECHAT_JUDGE_TEMPERATURE),
    jsonMode: responseFormat(env.SITECHAT_JUDGE_RESPONSE_FORMAT),
  };
}

function validBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new JudgeConfigError('SITECHAT_JUDGE_BASE_URL is not a valid URL — use e.g. http://localhost:11434/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new JudgeConfigError(`SITECHAT_JUDGE_BASE_URL must use http or https, got ${url.protocol}`);
  if (url.username || url.password) throw new JudgeConfigError('SITECHAT_JUDGE_BASE_URL must not contain credentials — put the key in SITECHAT_JUDGE_API_KEY');
  return raw.replace(/\/+$/u, '');
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Infinity): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    const range = max === Infinity ? `>= ${min}` : `from ${min} to ${max}`;
    throw new JudgeConfigError(`${name} must be a number ${range}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function temperature(raw: string | undefined): number | undefined {
  const text = raw?.trim();
  if (text === undefined || text === '') return JUDGE_DEFAULTS.temperature;
  if (text.toLowerCase() === 'none') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 2) throw new JudgeConfigError(`SITECHAT_JUDGE_TEMPERATURE must be 0–2 or "none", got ${JSON.stringify(text)}`);
  return value;
}

function responseFormat(raw: string | undefined): boolean {
  const text = raw?.trim().toLowerCase();
  if (text === undefined || text === '' || text === 'json_object') return true;
  if (text === 'none') return false;
  throw new JudgeConfigError(`SITECHAT_JUDGE_RESPONSE_FORMAT must be "json_object" or "none", got ${JSON.stringify(raw)}`);
}
