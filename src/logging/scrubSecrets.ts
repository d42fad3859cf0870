import { Secret } from '../api/secret';

/** Settings whose values are secrets: never written into a crash report or a log line. */
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
