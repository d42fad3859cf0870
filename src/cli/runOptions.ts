import { loadRunConfig, parseDuration, type RunConfig } from '../config';
import type { RunOptions } from '../../workflows/types';
import type { RunFlags } from './commands/run';

export class UsageError extends Error {
  override name = 'UsageError';
}

function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number >= 1, got "${raw}"`);
  return n;
}

/** "0.9", "90%" or "90" → 0.9 */
export function parseRate(raw: string, flag = '--fail-under'): number {
  const percent = raw.trim().endsWith('%');
  let n = Number(raw.trim().replace(/%$/, ''));
  if (percent || n > 1) n /= 100;
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} must be a rate such as 0.9 or 90%, got "${raw}"`);
  return n;
}

/** Flags win over the config file, which wins over the defaults. */
export async function resolveRunOptions(
  flags: RunFlags,
  defaults: { siteId?: string; email?: string },
): Promise<{ options: RunOptions; config?: RunConfig }> {
  const config = flags.config ? await loadRunConfig(flags.config) : undefined;
  const siteId = flags.site ?? config?.site ?? defaults.siteId;
  if (!siteId) throw new UsageError('no site given: pass --site ID or set SITECHAT_SITE_ID');
  const answerTimeout = flags.answerTimeout ?? config?.answerTimeout ?? '5m';
  const failUnder = flags.failUnder !== undefined ? parseRate(flags.failUnder) : config?.failUnder;
  const maxErrorRate = flags.maxErrorRate !== undefined ? parseRate(flags.maxErrorRate, '--max-error-rate') : config?.maxErrorRate;
  const allowSideEffectFailures = flags.allowSideEffectFailures ?? config?.allowSideEffectFailures;
  const feedback = (flags.feedback ?? config?.feedback ?? 'graded') as RunOptions['feedback'];
  return {
    config,
    options: {
      siteId,
      concurrency: flags.concurrency !== undefined ? positiveInt('--concurrency', flags.concurrency) : (config?.concurrency ?? 50),
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
      allowSideEffectFailures,
      baseline: flags.baseline,
      outDir: flags.out,
    },
  };
}
