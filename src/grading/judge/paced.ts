/**
 * In-process pacing and retry for judge calls outside Temporal (`sitechat grade`): at most `rpm` calls per minute,
 * evenly spaced (retries count: the provider counts them), and exponential backoff on retryable errors. Inside a
 * run, the judge task queue's rate limit and the activity retry policy do this instead.
 */
import { delay } from '../../ratelimit/slidingWindow';
import { doubling, retry } from '../../shared/retry';
import { JudgeError } from './errors';
import { cappedRetryAfterMs, isFinalAttempt } from './retry';
import { JUDGE_DEFAULTS } from './settings';
import type { Judge, JudgeRequest, JudgeVerdict } from './types';

export interface PacedJudgeOptions {
  /** Calls per minute; 0 = unpaced. @default 60 */
  rpm?: number;
  /** Attempts per judgement on retryable errors (unparseable replies: at most 2). @default 6 */
  maxAttempts?: number;
  /**
   * The longest wait a 429's `Retry-After` gets (SITECHAT_JUDGE_MAX_RETRY_AFTER_MS); a longer one is waited this long,
   * and the attempt counts. 0 ignores `Retry-After`. @default 60000
   */
  maxRetryAfterMs?: number;
  /** First backoff, doubled per attempt up to 30 s; a 429's `Retry-After` (capped) wins when longer. @default 1000 */
  initialBackoffMs?: number;
  /** Replaces waiting (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** @default performance.now */
  now?: () => number;
}

const MAX_BACKOFF_MS = 30_000;

/** Spaces call starts `60 000 / rpm` ms apart, in arrival order. */
export class Pacer {
  private next = 0;
  constructor(
    private readonly rpm: number,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = delay,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async wait(signal?: AbortSignal): Promise<void> {
    if (this.rpm <= 0) return;
    const t = this.now();
    const at = Math.max(t, this.next);
    this.next = at + 60_000 / this.rpm;
    if (at > t) await this.sleep(at - t, signal);
  }
}

/** `judge` behind a pacer and a retry loop; same interface, so it drops in wherever a `Judge` goes. */
export function pacedJudge(judge: Judge, options: PacedJudgeOptions = {}): Judge {
  const sleep = options.sleep ?? delay;
  const pacer = new Pacer(options.rpm ?? 60, sleep, options.now);
  const limits = {
    maxAttempts: Math.max(1, options.maxAttempts ?? JUDGE_DEFAULTS.maxAttempts),
    maxRetryAfterMs: options.maxRetryAfterMs ?? JUDGE_DEFAULTS.maxRetryAfterMs,
  };
  const initial = options.initialBackoffMs ?? 1000;
  return {
    model: judge.model,
    async judge(request: JudgeRequest, callOptions: { signal?: AbortSignal } = {}): Promise<JudgeVerdict> {
      return retry(async () => {
        await pacer.wait(callOptions.signal);
        return judge.judge(request, callOptions);
      }, {
        // Not a JudgeError: the caller's cancellation (a judge throws nothing else), which ends the loop.
        retryable: (err, attempt) => err instanceof JudgeError && !isFinalAttempt(err, attempt, limits),
        delayMs: (err, attempt) => Math.max(doubling(initial, attempt, MAX_BACKOFF_MS), cappedRetryAfterMs(err as JudgeError, limits) ?? 0),
        sleep: (ms) => sleep(ms, callOptions.signal),
      });
    },
  };
}
