import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scrubSecrets } from '../observability/logging/scrubSecrets';

// The scrubber lives with the logs, which use it too; crash reports and main.ts import it from here.
export { scrubSecrets };

/**
 * Writes an unexpected error's stack (and causes) to a file of its own in the temp directory, with the secrets of
 * the environment scrubbed, and returns the file's path; the terminal gets a short message naming it. Undefined
 * when the file could not be written.
 */
export function writeCrashReport(err: unknown, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const lines = [`sitechat ${argv.join(' ')}`, `at ${new Date().toISOString()}, node ${process.version}, pid ${process.pid}`, ''];
  for (let e: unknown = err, depth = 0; e !== undefined && depth < 8; e = e instanceof Error ? e.cause : undefined, depth++) {
    lines.push(depth === 0 ? '' : 'caused by:', e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e));
  }
  const path = join(tmpdir(), `sitechat-crash-${Date.now()}-${process.pid}.log`);
  try {
    writeFileSync(path, `${scrubSecrets(lines.join('\n'), env)}\n`, { mode: 0o600 });
    return path;
  } catch {
    return undefined;
  }
}
