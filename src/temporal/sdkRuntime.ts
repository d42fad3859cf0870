import { DefaultLogger, Runtime, type LogEntry } from '@temporalio/worker';
import { logFormatFromEnv } from '../observability/logging/format';
import { jsonLogLine } from '../observability/logging/jsonLine';
import { scrubSecrets } from '../observability/logging/scrubSecrets';
import { temporalLogFields } from '../observability/logging/temporalFields';

type Level = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface RuntimeSettings {
  /**
   * Where the SDK core serves its own Prometheus metrics (`127.0.0.1:port`); off when absent. The runner's metrics
   * endpoint fetches them from there and serves them with its own (`src/observability/metrics`).
   */
  metricsBindAddress?: string;
}

const bigintSafe = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/** A log entry of the SDK (its own, or a workflow's or activity's logger) as a line on stderr, in SITECHAT_LOG_FORMAT. */
function writeEntry(entry: LogEntry, format: 'text' | 'json'): void {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n));
  if (format === 'json') {
    process.stderr.write(jsonLogLine({ time, level: entry.level, source: 'worker', msg: entry.message, fields: temporalLogFields(entry.meta) }));
    return;
  }
  const meta = entry.meta ? ` ${JSON.stringify(entry.meta, bigintSafe)}` : '';
  process.stderr.write(scrubSecrets(`${time.toISOString()} [${entry.level}] ${entry.message}${meta}\n`, process.env));
}

/**
 * The SDK logs every worker state change at INFO; a standalone worker wants warnings (retried activities among
 * them), and the CLI's in-process worker errors only, so its progress bar stays readable.
 * SITECHAT_TEMPORAL_LOG_LEVEL (TRACE … ERROR) overrides both. The SDK's own signal handling is off: on Ctrl-C it
 * would shut the workers down before sitechat has asked whether to cancel or detach. Must run before the first
 * worker or native connection of the process; the first call wins. Returns whether this call installed it (and so
 * whether `settings` took effect).
 */
export function installQuietRuntime(defaultLevel: Level = 'WARN', settings: RuntimeSettings = {}): boolean {
  if (Runtime._instance !== undefined) return false;
  const level = (process.env.SITECHAT_TEMPORAL_LOG_LEVEL ?? defaultLevel).toUpperCase() as Level;
  const format = logFormatFromEnv();
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger(level, (entry) => {
      // Activity-only workers (one per rate-limited queue) are that way on purpose.
      if (entry.message.startsWith('No workflows registered')) return;
      writeEntry(entry, format);
    }),
    ...(settings.metricsBindAddress === undefined ? {} : {
      // Durations in seconds, as Prometheus names them and as the runner's own histograms are.
      telemetryOptions: { metrics: { prometheus: { bindAddress: settings.metricsBindAddress, useSecondsForDurations: true } } },
    }),
  });
  return true;
}
