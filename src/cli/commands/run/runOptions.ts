import { DEFAULT_REASK_FAILED, MAX_REASK_FAILED } from '../../../api/failureRules';
import { loadRunConfig, parseDuration, type RunConfig } from '../../../config';
import { MAX_CONFIRM } from '../../../datasets/confirm';
import { MAX_REPEAT } from '../../../datasets/repeat';
import type { RunOptions } from '../../../domain/run';
import type { RunFlags } from './flags';
import { resolveNotify } from './notifyOptions';
import { UsageError } from '../../usageError';

/** A whole number >= 1. */
export function parsePositiveInt(raw: string, flag: string): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/u.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number >= 1, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * "0.9", "0", "1" or "90%" → a fraction. A bare number above 1 ("90", "2") is refused rather than read as a
 * percentage: `--fail-under 2` is a typo, not 2%.
 */
export function parseRate(raw: string, flag = '--fail-under'): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/u.exec(raw.trim());
  const expected = 'a fraction from 0 to 1 (0.9) or a percentage with % (90%)';
  if (!match) throw new UsageError(`${flag} must be ${expected}, got ${JSON.stringify(raw)}`);
  const percent = match[2] === '%';
  const value = Number(match[1]) / (percent ? 100 : 1);
  if (value > 1) {
    const hint = percent ? '' : ` (did you mean ${match[1]}%?)`;
    throw new UsageError(`${flag} must be ${expected}, got ${JSON.stringify(raw)}${hint}`);
  }
  return value;
}

/** `--repeat N`: a whole number from 1 to {@link MAX_REPEAT}. */
export function parseRepeat(raw: string): number {
  const n = parsePositiveInt(raw, '--repeat');
  if (n > MAX_REPEAT) throw new UsageError(`--repeat must be at most ${MAX_REPEAT}, got ${n}`);
  return n;
}

/** Only a repeat above 1 enters the options: runs without one keep the exact options (and history) they had. */
function repeatOption(repeat: number | undefined): Pick<RunOptions, 'repeat'> {
  return repeat !== undefined && repeat > 1 ? { repeat } : {};
}

/** `--confirm K`: a whole number from 0 (off) to {@link MAX_CONFIRM}. */
export function parseConfirm(raw: string): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/u.test(raw) || n > MAX_CONFIRM) throw new UsageError(`--confirm must be a whole number from 0 (off) to ${MAX_CONFIRM}, got ${JSON.stringify(raw)}`);
  return n;
}

/** Only a confirm above 0 enters the options: runs without one keep the exact options (and history) they had. */
function confirmOption(confirm: number | undefined): Pick<RunOptions, 'confirm'> {
  return confirm !== undefined && confirm > 0 ? { confirm } : {};
}

/** `--reask-failed N`: a whole number from 0 (off) to {@link MAX_REASK_FAILED}. */
export function parseReaskFailed(raw: string): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/u.test(raw) || n > MAX_REASK_FAILED) throw new UsageError(`--reask-failed must be a whole number from 0 (off) to ${MAX_REASK_FAILED}, got ${JSON.stringify(raw)}`);
  return n;
}

/** Only a setting other than the default enters the options: runs without one keep the exact options (and history) they had. */
function reaskOption(reaskFailed: number | undefined): Pick<RunOptions, 'reaskFailed'> {
  return reaskFailed !== undefined && reaskFailed !== DEFAULT_REASK_FAILED ? { reaskFailed } : {};
}

/** `--feedback`, else the config's `feedback`, else `graded`. */
export function feedbackMode(flags: Pick<RunFlags, 'feedback'>, config: Pick<RunConfig, 'feedback'> | undefined): RunOptions['feedback'] {
  return (flags.feedback ?? config?.feedback ?? 'graded') as RunOptions['feedback'];
}

/** Flags win over the config file, which wins over the defaults. */
export async function resolveRunOptions(
  flags: RunFlags,
  defaults: { siteId?: string; email?: string; config?: RunConfig; confirm?: number },
): Promise<{ options: RunOptions; config?: RunConfig }> {
  // A config already loaded by the flag checks is not read (nor its graders imported) twice.
  const config = defaults.config ?? (flags.config ? await loadRunConfig(flags.config) : undefined);
  const siteId = flags.site ?? config?.site ?? defaults.siteId;
  if (!siteId) throw new UsageError('no site given: pass --site ID or set SITECHAT_SITE_ID');
  const answerTimeout = flags.answerTimeout ?? config?.answerTimeout ?? '5m';
  const failUnder = flags.failUnder !== undefined ? parseRate(flags.failUnder) : config?.failUnder;
  const maxErrorRate = flags.maxErrorRate !== undefined ? parseRate(flags.maxErrorRate, '--max-error-rate') : config?.maxErrorRate;
  const maxUncertainRate = flags.maxUncertainRate !== undefined ? parseRate(flags.maxUncertainRate, '--max-uncertain-rate') : config?.maxUncertainRate;
  const allowSideEffectFailures = flags.allowSideEffectFailures ?? config?.allowSideEffectFailures;
  const feedback = feedbackMode(flags, config);
  return {
    config,
    options: {
      siteId,
      concurrency: flags.concurrency !== undefined ? parsePositiveInt(flags.concurrency, '--concurrency') : (config?.concurrency ?? 50),
      feedback,
      answerTimeoutMs: parseDuration(answerTimeout),
      defaultEmail: flags.email ?? config?.email ?? defaults.email,
      model: flags.model ?? config?.model,
      assertions: config?.assertions ?? [],
      thresholds: config?.thresholds,
      closeSessions: flags.closeSessions ?? true,
      mode: flags.mode ?? 'async',
      delimiter: flags.delimiter,
      failUnder,
      maxErrorRate,
      maxUncertainRate,
      allowSideEffectFailures,
      baseline: flags.baseline,
      outDir: flags.out,
      ...repeatOption(flags.repeat !== undefined ? parseRepeat(flags.repeat) : config?.repeat),
      ...confirmOption(flags.confirm !== undefined ? parseConfirm(flags.confirm) : (config?.confirm ?? defaults.confirm)),
      ...reaskOption(flags.reaskFailed !== undefined ? parseReaskFailed(flags.reaskFailed) : config?.reaskFailed),
      notify: resolveNotify(flags, config, flags.config),
    },
  };
}
