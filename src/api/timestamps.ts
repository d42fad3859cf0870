/**
 * Instants in API responses. The spec says only "Timestamps are ISO 8601 strings", so this reads every extended
 * ISO 8601 date-time a server may write: any number of fraction digits (kept to the millisecond), `Z` or an offset
 * (`+05:30`, `+0530`, `+05`), `T` or a space between date and time, a date alone (midnight) — and a time without a
 * zone as UTC, never as this machine's local time, so a result does not depend on where the runner runs.
 * Pure (no Node imports): workflow code may use it.
 */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** Milliseconds since the epoch, or undefined for text that is not an ISO 8601 date-time that exists. */
export function parseTimestamp(text: string): number | undefined {
  const m = ISO_8601.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const fraction = m[7] ?? '';
  const zone = (m[8] ?? 'Z').toUpperCase();
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number(`${fraction}000`.slice(0, 3)));
  const back = new Date(local);
  // Date.UTC rolls over (February 30 becomes March 2): only a date-time that reads back unchanged exists.
  const exists = back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day
    && back.getUTCHours() === hour && back.getUTCMinutes() === minute && back.getUTCSeconds() === second;
  if (!exists) return undefined;
  if (zone === 'Z') return local;
  const hours = Number(zone.slice(1, 3));
  const minutes = zone.length === 3 ? 0 : Number(zone.slice(-2)); // +05, +0530 or +05:30
  if (hours > 23 || minutes > 59) return undefined;
  return local - (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}
