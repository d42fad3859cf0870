import { ConfigError } from '../../shared/configError';

export type LogFormat = 'text' | 'json';

/** A SITECHAT_LOG_FORMAT other than `text` or `json`: a usage error (exit 2). */
export class LogFormatError extends ConfigError {
  override name = 'LogFormatError';
}

/** SITECHAT_LOG_FORMAT: `text` (the default, for people) or `json` (one object per line, for log collectors). */
export function logFormatFromEnv(env: NodeJS.ProcessEnv = process.env): LogFormat {
  const raw = env.SITECHAT_LOG_FORMAT?.trim().toLowerCase();
  if (!raw || raw === 'text') return 'text';
  if (raw === 'json') return 'json';
  throw new LogFormatError(`SITECHAT_LOG_FORMAT=${JSON.stringify(env.SITECHAT_LOG_FORMAT)}: must be text or json`);
}
