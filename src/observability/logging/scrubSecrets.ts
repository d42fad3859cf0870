import { Secret } from '../../api/secret';

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

/** The OTLP exporter's header lists: their values (a collector's token) are secrets too. */
const HEADER_SETTINGS = ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'] as const;

function headerValues(list: string | undefined): string[] {
  if (!list) return [];
  return list.split(',').flatMap((entry) => {
    const raw = entry.slice(entry.indexOf('=') + 1).trim();
    if (entry.indexOf('=') <= 0 || raw === '') return [];
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // not URL-encoded: scrubbed as it is
    }
    return decoded === raw ? [raw] : [raw, decoded];
  });
}

/** `text` with the values of the secret settings in `env` (a store URL's password, OTLP header values) replaced. */
export function scrubSecrets(text: string, env: NodeJS.ProcessEnv): string {
  const values = SECRET_SETTINGS.map((name) => env[name]).filter((v): v is string => typeof v === 'string' && v !== '');
  for (const name of HEADER_SETTINGS) values.push(...headerValues(env[name]));
  // A store URL's password alone may appear in a driver's message.
  const password = passwordOf(env.SITECHAT_STORE_URL);
  if (password) values.push(password);
  return values.reduce((out, value) => new Secret(value).scrub(out), text);
}
