/** Duration strings as used in the run config and CLI flags: `250ms`, `90s`, `5m`, `1h`, `7d`, `1h30m`. */

/** Milliseconds per unit. */
export const DurationUnit = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
} as const;
export type DurationUnit = keyof typeof DurationUnit;

const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/u;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gu;

/** A duration string that cannot be read, with a message saying what is expected. */
export class DurationError extends Error {
  override readonly name = 'DurationError';
}

/**
 * Parses a duration into whole milliseconds. One or more `<number><unit>` parts, units ms, s, m,
 * h, d; decimals allowed (`1.5h`); surrounding whitespace ignored; a bare number is rejected so
 * that `5` is never silently read as 5 ms.
 */
export function parseDuration(text: string): number {
  const compact = text.trim().toLowerCase();
  if (!WHOLE.test(compact)) {
    const hint = /^\d+(\.\d+)?$/u.test(compact) ? ` (add a unit, e.g. "${compact}s")` : '';
    throw new DurationError(
      `invalid duration ${JSON.stringify(text)}${hint}: use a number with a unit ms, s, m, h or d, e.g. "90s", "5m", "1h30m"`,
    );
  }
  let total = 0;
  for (const [, amount, unit] of compact.matchAll(PART)) {
    total += Number(amount) * DurationUnit[unit as DurationUnit];
  }
  return Math.round(total);
}

/** True when `text` is a valid duration string. */
export function isDuration(text: string): boolean {
  return WHOLE.test(text.trim().toLowerCase());
}
