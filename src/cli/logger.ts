import { logFormatFromEnv } from '../observability/logging/format';
import { jsonLogLine, type LogFields } from '../observability/logging/jsonLine';
import { escapeControl } from './terminalText';

/**
 * The one output channel of the CLI. Progress and diagnostics go to stderr so that `--json` output on stdout
 * stays machine-readable. Every line is passed through `escapeControl`: messages echo dataset values, answers
 * and API errors, and none of them may drive the terminal.
 */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  debug(line: string): void;
  /** Machine-readable or primary output (stdout). */
  out(text: string): void;
  /**
   * Fields every later diagnostic carries once known (run id, workflow id, site): written into each line under
   * SITECHAT_LOG_FORMAT=json, ignored in text. Optional: loggers of tests need not have it.
   */
  annotate?(fields: LogFields): void;
}

/**
 * The CLI's logger. SITECHAT_LOG_FORMAT=json writes each diagnostic as one JSON object per line on stderr (level,
 * time, `source` (`cli`, or `worker` for `sitechat worker`, whose SDK log lines say `worker` too), message, the
 * annotated fields), with the environment's secrets scrubbed; stdout stays as it is. An unknown
 * format throws a `LogFormatError` (a usage error: exit 2).
 */
export function createLogger(options: { quiet?: boolean; verbose?: boolean; source?: 'cli' | 'worker' } = {}): Logger {
  const format = logFormatFromEnv();
  const fields: LogFields = {};
  const err = format === 'json'
    ? (level: string) => (line: string) => void process.stderr.write(jsonLogLine({ level, source: options.source ?? 'cli', msg: line, fields }))
    : (level: string) => {
      const prefix = level === 'info' ? '' : `${level === 'warn' ? 'warning' : level}: `;
      return (line: string) => void process.stderr.write(`${prefix}${escapeControl(line)}\n`);
    };
  return {
    info: options.quiet ? () => undefined : err('info'),
    warn: err('warn'),
    error: err('error'),
    debug: options.verbose || process.env.SITECHAT_DEBUG ? err('debug') : () => undefined,
    out: (text) => {
      const safe = escapeControl(text);
      process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
    },
    annotate: (more) => void Object.assign(fields, more),
  };
}
