import { scrubSecrets } from './scrubSecrets';

/** Field values of a log line: strings, numbers, booleans; bigints and errors become strings, other objects are left out. */
export type LogFields = Record<string, unknown>;

/**
 * One log entry as one line of JSON: `{"time","level","source","msg",…fields}`. Every string in it goes through the
 * same secret scrubbing as crash reports and error messages, before it is serialized (a key with a quote or a
 * backslash in it would be escaped past the scrubber afterwards).
 */
export function jsonLogLine(entry: { time?: Date; level: string; source: string; msg: string; fields?: LogFields }, env: NodeJS.ProcessEnv = process.env): string {
  const line: Record<string, string | number | boolean> = {
    time: (entry.time ?? new Date()).toISOString(),
    level: entry.level.toLowerCase(),
    source: entry.source,
    msg: scrubSecrets(entry.msg, env),
  };
  for (const [key, value] of Object.entries(entry.fields ?? {})) {
    if (key in line || value === undefined || value === null) continue;
    if (typeof value === 'string') line[key] = scrubSecrets(value, env);
    else if (typeof value === 'number' || typeof value === 'boolean') line[key] = value;
    else if (typeof value === 'bigint') line[key] = value.toString();
    // The SDK logs a failed activity with its error: the class and message say what went wrong.
    else if (value instanceof Error) line[key] = scrubSecrets(`${value.name}: ${value.message}`, env);
  }
  return `${JSON.stringify(line)}\n`;
}
