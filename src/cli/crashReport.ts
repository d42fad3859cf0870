import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret } from '../api/secret';

/** Settings whose values are secrets: never written into a crash report. */
const SECRET_SETTINGS = ['SITECHAT_API_KEY', 'SITECHAT_JUDGE_API_KEY', 'SITECHAT_STORE_URL', 'SITECHAT_DB_PASSWORD'] as const;

function passwordOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined; // not a URL: its whole value is scrubbed as it is
  }
}

/** `text` with the values of the secret settings in `env` (and a store URL's password) replaced. */
export function scrubSecrets(text: string, env: NodeJS.ProcessEnv): string {
  const values = SECRET_SETTINGS.map((name) => env[name]).filter((v): v is string => typeof v === 'string' && v !== '');
  // A store URL's password alone may appear in a driver's message.
  const password = passwordOf(env.SITECHAT_STORE_URL);
  if (password) values.push(password);
  return values.reduce((out, value) => new Secret(value).scrub(out), text);
}

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
