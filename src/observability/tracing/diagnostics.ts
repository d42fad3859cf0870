import { diag, DiagLogLevel } from '@opentelemetry/api';

/** A warning of the same kind (its numbers aside) is logged at most once per this long; the rest are counted. */
export const REPEAT_WINDOW_MS = 60_000;

const noop = (): void => undefined;

/**
 * One line of the SDK's diagnostics. The SDK reports a failed export through its global error handler, which logs
 * the exception as JSON of all its fields, stack included: that becomes its name and message
 * (`Error: connect ECONNREFUSED 127.0.0.1:4318`, `Error: Request Timeout`).
 */
export function diagnosticText(message: string, args: readonly unknown[]): string {
  return [condensed(message), ...args.map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? condensed(a) : JSON.stringify(a)))].join(' ');
}

function condensed(text: string): string {
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as { name?: unknown; message?: unknown };
    if (typeof parsed.message === 'string') return `${typeof parsed.name === 'string' ? parsed.name : 'Error'}: ${parsed.message}`;
  } catch {
    // Not JSON after all: as it is.
  }
  return text;
}

/**
 * `warn`, with repeats held back: a collector that is down makes every batch fail (one a few seconds), so the same
 * line would fill the log for as long as the outage lasts. The first of a kind is logged; the same kind again within
 * {@link REPEAT_WINDOW_MS} is only counted, and the next one logged after the window says how many were held back.
 * Kinds are told apart by their text with the numbers left out (`Dropped 12 spans …` and `Dropped 40 spans …` are one).
 */
export function withoutRepeats(warn: (message: string) => void, now: () => number = Date.now): (message: string) => void {
  const seen = new Map<string, { at: number; held: number }>();
  return (message) => {
    const kind = message.replace(/\d+/g, '#');
    const t = now();
    const last = seen.get(kind);
    if (last && t - last.at < REPEAT_WINDOW_MS) {
      last.held += 1;
      return;
    }
    const held = last?.held ?? 0;
    seen.set(kind, { at: t, held: 0 });
    warn(held > 0 ? `${message} (and ${held} more like it in the last ${Math.round((t - (last?.at ?? t)) / 1000)} s)` : message);
  };
}

/** The SDK's diagnostics at WARN and above as lines of the process's log: spans that cannot be exported say so. */
export function reportDiagnostics(warn: (message: string) => void): void {
  const limited = withoutRepeats(warn);
  const line = (message: string, args: unknown[]): void => limited(`OpenTelemetry: ${diagnosticText(message, args)}`);
  diag.setLogger({ error: (m, ...a) => line(m, a), warn: (m, ...a) => line(m, a), info: noop, debug: noop, verbose: noop }, DiagLogLevel.WARN);
}
