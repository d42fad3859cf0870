import { DefaultLogger, Runtime } from '@temporalio/worker';

/**
 * The SDK logs every worker state change at INFO; a CLI user wants warnings only. SITECHAT_TEMPORAL_LOG_LEVEL
 * (TRACE … ERROR) turns it up. Must run before the first worker or native connection of the process.
 */
export function installQuietRuntime(): void {
  if (Runtime._instance !== undefined) return;
  const level = (process.env.SITECHAT_TEMPORAL_LOG_LEVEL ?? 'WARN').toUpperCase() as 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  Runtime.install({ logger: new DefaultLogger(level) });
}
