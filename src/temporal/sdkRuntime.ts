import { DefaultLogger, Runtime } from '@temporalio/worker';

/**
 * The SDK logs every worker state change at INFO; a CLI user wants warnings only. SITECHAT_TEMPORAL_LOG_LEVEL
 * (TRACE … ERROR) turns it up. Must run before the first worker or native connection of the process.
 */
export function installQuietRuntime(): void {
  if (Runtime._instance !== undefined) return;
  const level = (process.env.SITECHAT_TEMPORAL_LOG_LEVEL ?? 'WARN').toUpperCase() as 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  Runtime.install({
    logger: new DefaultLogger(level, (entry) => {
      // Activity-only workers (one per rate-limited queue) are that way on purpose.
      if (entry.message.startsWith('No workflows registered')) return;
      process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}${entry.meta ? ` ${JSON.stringify(entry.meta, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}` : ''}\n`);
    }),
  });
}
