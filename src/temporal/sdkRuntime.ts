import { DefaultLogger, Runtime } from '@temporalio/worker';

type Level = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/**
 * The SDK logs every worker state change at INFO; a standalone worker wants warnings (retried activities among
 * them), and the CLI's in-process worker errors only, so its progress bar stays readable.
 * SITECHAT_TEMPORAL_LOG_LEVEL (TRACE … ERROR) overrides both. The SDK's own signal handling is off: on Ctrl-C it
 * would shut the workers down before sitechat has asked whether to cancel or detach. Must run before the first
 * worker or native connection of the process; the first call wins.
 */
export function installQuietRuntime(defaultLevel: Level = 'WARN'): void {
  if (Runtime._instance !== undefined) return;
  const level = (process.env.SITECHAT_TEMPORAL_LOG_LEVEL ?? defaultLevel).toUpperCase() as Level;
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger(level, (entry) => {
      // Activity-only workers (one per rate-limited queue) are that way on purpose.
      if (entry.message.startsWith('No workflows registered')) return;
      process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}${entry.meta ? ` ${JSON.stringify(entry.meta, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}` : ''}\n`);
    }),
  });
}
