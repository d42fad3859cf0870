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
}

export function createLogger(options: { quiet?: boolean; verbose?: boolean } = {}): Logger {
  const err = (prefix: string) => (line: string) => void process.stderr.write(`${prefix}${escapeControl(line)}\n`);
  return {
    info: options.quiet ? () => undefined : err(''),
    warn: err('warning: '),
    error: err('error: '),
    debug: options.verbose || process.env.SITECHAT_DEBUG ? err('debug: ') : () => undefined,
    out: (text) => {
      const safe = escapeControl(text);
      process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
    },
  };
}
